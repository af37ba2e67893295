//! Reading a whole body into memory: the request the guard fingerprints, the answer it keeps.

use bytes::{Bytes, BytesMut};
use http_body_util::BodyExt as _;
use http_body_util::combinators::BoxBody;
use poem::Body;
use poem::error::ReadBodyError;

/// The whole of `body`. A body in one frame (an answer rendered in memory, most requests) is
/// taken as it is, without `Body::into_bytes`'s list of frames and copy; any other is collected.
pub(crate) async fn whole(body: Body) -> Result<Bytes, ReadBodyError> {
    let mut body: BoxBody<Bytes, std::io::Error> = body.into();
    let first = match body.frame().await {
        None => return Ok(Bytes::new()),
        Some(frame) => frame?.into_data().unwrap_or_default(),
    };
    if http_body::Body::is_end_stream(&body) {
        return Ok(first);
    }
    let rest = body.collect().await?.to_bytes();
    let mut all = BytesMut::with_capacity(first.len() + rest.len());
    all.extend_from_slice(&first);
    all.extend_from_slice(&rest);
    Ok(all.freeze())
}

#[cfg(test)]
mod tests {
    use futures_util::stream;

    use super::*;

    fn streamed(chunks: &[&'static str]) -> Body {
        let frames = chunks
            .iter()
            .map(|chunk| Ok::<_, std::io::Error>(Bytes::from_static(chunk.as_bytes())));
        Body::from_bytes_stream(stream::iter(frames.collect::<Vec<_>>()))
    }

    #[tokio::test]
    async fn a_body_in_memory_is_read_whole() {
        let bytes = whole(Body::from_string("{\"id\":1}".to_owned()))
            .await
            .unwrap();

        assert_eq!(bytes, "{\"id\":1}");
    }

    #[tokio::test]
    async fn a_body_in_one_frame_is_taken_without_a_copy() {
        let sent = Bytes::from_static(b"{\"id\":1}");

        let read = whole(Body::from_bytes(sent.clone())).await.unwrap();

        assert_eq!(read.as_ptr(), sent.as_ptr(), "the same bytes, not a copy");
    }

    #[tokio::test]
    async fn a_body_in_several_frames_is_read_whole_in_order() {
        let bytes = whole(streamed(&["{\"id\"", ":", "1}"])).await.unwrap();

        assert_eq!(bytes, "{\"id\":1}");
    }

    #[tokio::test]
    async fn a_first_frame_left_empty_is_followed_by_the_rest() {
        let bytes = whole(streamed(&["", "{}"])).await.unwrap();

        assert_eq!(bytes, "{}");
    }

    #[tokio::test]
    async fn an_empty_body_is_empty() {
        assert!(whole(Body::empty()).await.unwrap().is_empty());
        assert!(whole(streamed(&[])).await.unwrap().is_empty());
    }

    #[tokio::test]
    async fn a_body_that_fails_while_read_is_an_error() {
        let failing = stream::iter(vec![
            Ok(Bytes::from_static(b"{")),
            Err(std::io::Error::other("reset")),
        ]);

        let read = whole(Body::from_bytes_stream(failing)).await;

        assert!(matches!(read, Err(ReadBodyError::Io(_))), "{read:?}");
    }
}
