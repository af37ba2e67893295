//! Writes under a request's conditions, with the entity's version as the guard against lost
//! updates.

use kernel::{AppError, AppResult};

use crate::entity_tag::EntityTag;
use crate::precondition::Preconditions;

/// How often a conditional write re-reads after losing a race before giving up (409).
const ATTEMPTS: usize = 3;

/// The read step of [`conditional_write`], `async |tx| ...`: the stored version, or `None` when
/// there is no such entity. `Lent` is the `&mut` transaction it is lent.
///
/// It is an async closure (`AsyncFnMut`) that [`conditional_write`] calls as an `FnMut`
/// returning a named future. Called through `AsyncFnMut` alone, a step that captures
/// references (every handler's does: `&self`, the owner, the fields) makes rustc fail to prove
/// the handler's future `Send` ("implementation of `Send` is not general enough",
/// rust-lang/rust#134997). A closure that only reads what it captures is both.
pub trait ReadVersion<Lent>:
    AsyncFnMut(Lent) -> AppResult<Option<i64>> + FnMut(Lent) -> <Self as ReadVersion<Lent>>::Future
{
    type Future: Future<Output = AppResult<Option<i64>>>;
}

impl<F, Lent, Fut> ReadVersion<Lent> for F
where
    F: AsyncFnMut(Lent) -> AppResult<Option<i64>> + FnMut(Lent) -> Fut,
    Fut: Future<Output = AppResult<Option<i64>>>,
{
    type Future = Fut;
}

/// The write step of [`conditional_write`], `async |tx, version| ...`: one statement that
/// writes only if the stored version is still `version`, answering the entity written, or
/// `None` when the version was no longer `version`. Called as [`ReadVersion`] is, for the same
/// reason.
pub trait WriteAtVersion<Lent, T>:
    AsyncFnMut(Lent, i64) -> AppResult<Option<T>>
    + FnMut(Lent, i64) -> <Self as WriteAtVersion<Lent, T>>::Future
{
    type Future: Future<Output = AppResult<Option<T>>>;
}

impl<F, Lent, T, Fut> WriteAtVersion<Lent, T> for F
where
    F: AsyncFnMut(Lent, i64) -> AppResult<Option<T>> + FnMut(Lent, i64) -> Fut,
    Fut: Future<Output = AppResult<Option<T>>>,
{
    type Future = Fut;
}

/// Writes an entity under `preconditions`, lending `tx` (the request's transaction) to each
/// step in turn: `read_version(tx)` reads the stored version; `write_at_version(tx, v)` writes
/// only if it is still `v`, in one statement (e.g.
/// `UPDATE ... WHERE id = $1 AND version = $2 RETURNING ...`). Answers the entity written,
/// `Ok(None)` when there is no entity and the conditions allow that (the caller's 404), 412
/// when a condition fails, 409 when the entity kept changing under this write.
///
/// When `If-Match` names one version, the write goes first and nothing is read unless it fails
/// (to tell the 404 from the 412). Otherwise the version is read, the conditions evaluated on
/// it, and the write made conditional on that same version, read again if it lost a race.
///
/// ```ignore
/// let mut tx = outcome.begin(self.repository.pool()).await?;
/// let updated = conditional_write(
///     &preconditions,
///     &mut tx,
///     async |tx| self.repository.version(tx, owner, id).await,
///     async |tx, version| self.repository.update(tx, owner, id, version, &fields).await,
/// )
/// .await?;
/// ```
pub async fn conditional_write<Tx, T>(
    preconditions: &Preconditions,
    tx: &mut Tx,
    mut read_version: impl for<'tx> ReadVersion<&'tx mut Tx>,
    mut write_at_version: impl for<'tx> WriteAtVersion<&'tx mut Tx, T>,
) -> AppResult<Option<T>> {
    if let Some(version) = preconditions.single_version() {
        if let Some(written) = write_at_version(tx, version).await? {
            return Ok(Some(written));
        }
        let current = read_version(tx).await?.map(EntityTag::of_version);
        preconditions.check_write(current.as_ref())?;
        // The version matched after all: it was written back to it meanwhile. Go the long way.
    }
    for _ in 0..ATTEMPTS {
        let Some(version) = read_version(tx).await? else {
            preconditions.check_write(None)?;
            return Ok(None);
        };
        preconditions.check_write(Some(&EntityTag::of_version(version)))?;
        if let Some(written) = write_at_version(tx, version).await? {
            return Ok(Some(written));
        }
    }
    Err(AppError::Conflict(
        "The resource kept changing while this request tried to change it; retry.".into(),
    ))
}

#[cfg(test)]
mod tests {
    use poem::http::{HeaderMap, HeaderValue};

    use super::*;

    fn preconditions(lines: &[(&'static str, &'static str)]) -> Preconditions {
        let mut headers = HeaderMap::new();
        for (name, value) in lines {
            headers.append(*name, HeaderValue::from_static(value));
        }
        Preconditions::from_headers(&headers).expect("valid preconditions")
    }

    /// A stored entity, standing for the transaction [`conditional_write`] lends to its steps:
    /// each step takes it `&mut`, as a repository method takes the connection.
    struct Stored {
        version: Option<i64>,
        name: String,
        /// The steps run on it, in order: `read` and `write at <version>`.
        steps: Vec<String>,
        /// How many of the next reads another writer follows by changing the entity.
        races: usize,
    }

    impl Stored {
        fn new(version: Option<i64>) -> Self {
            Self::raced(version, 0)
        }
        /// Another writer changes the entity right after each of the first `races` reads.
        fn raced(version: Option<i64>, races: usize) -> Self {
            Self {
                version,
                name: String::new(),
                steps: Vec::new(),
                races,
            }
        }
        async fn read_version(&mut self) -> AppResult<Option<i64>> {
            self.steps.push("read".to_owned());
            let read = self.version;
            if self.races > 0 {
                self.races -= 1;
                self.version = self.version.map(|version| version + 1);
            }
            Ok(read)
        }
        async fn rename_at_version(&mut self, expected: i64, name: &str) -> AppResult<Option<i64>> {
            self.steps.push(format!("write at {expected}"));
            match self.version {
                Some(version) if version == expected => {
                    self.version = Some(version + 1);
                    self.name = name.to_owned();
                    Ok(self.version)
                }
                _ => Ok(None),
            }
        }
        fn writes(&self) -> usize {
            self.steps
                .iter()
                .filter(|step| step.starts_with("write"))
                .count()
        }
    }

    async fn write_under(
        stored: &mut Stored,
        lines: &[(&'static str, &'static str)],
    ) -> AppResult<Option<i64>> {
        conditional_write(
            &preconditions(lines),
            stored,
            async |stored| stored.read_version().await,
            async |stored, version| stored.rename_at_version(version, "lamp").await,
        )
        .await
    }

    /// A handler's future must be `Send`: this one's steps capture a reference, as a handler's
    /// capture `&self` and the request's fields.
    fn assert_send<F: Future + Send>(future: F) -> F {
        future
    }

    #[tokio::test]
    async fn the_transaction_is_lent_to_each_step_in_turn() {
        let mut stored = Stored::raced(Some(7), 1);
        let name = String::from("desk");

        let written = assert_send(conditional_write(
            &Preconditions::default(),
            &mut stored,
            async |stored| stored.read_version().await,
            async |stored, version| stored.rename_at_version(version, &name).await,
        ))
        .await
        .unwrap();

        assert_eq!(written, Some(9));
        assert_eq!(
            stored.steps,
            ["read", "write at 7", "read", "write at 8"],
            "the write lost at 7, read again and wrote at 8"
        );
        assert_eq!(stored.name, "desk");
    }

    #[tokio::test]
    async fn a_matching_if_match_writes_once_without_a_read() {
        let mut stored = Stored::new(Some(3));
        let written = write_under(&mut stored, &[("if-match", "\"v3\"")])
            .await
            .unwrap();
        assert_eq!(written, Some(4));
        assert_eq!(stored.writes(), 1);
    }

    #[tokio::test]
    async fn a_stale_if_match_is_a_412_and_writes_nothing() {
        let mut stored = Stored::new(Some(4));
        let err = write_under(&mut stored, &[("if-match", "\"v3\"")])
            .await
            .unwrap_err();
        assert_eq!(err.status().as_u16(), 412);
        assert_eq!(stored.version, Some(4));
        assert_eq!(
            stored.steps,
            ["write at 3", "read"],
            "no write after the 412"
        );
    }

    #[tokio::test]
    async fn a_missing_entity_is_none_without_conditions_and_a_412_with_if_match() {
        let mut stored = Stored::new(None);
        assert_eq!(write_under(&mut stored, &[]).await.unwrap(), None);
        let err = write_under(&mut stored, &[("if-match", "\"v1\"")])
            .await
            .unwrap_err();
        assert_eq!(err.status().as_u16(), 412);
    }

    #[tokio::test]
    async fn a_write_that_loses_a_race_reads_again_and_writes_the_newer_version() {
        let mut stored = Stored::raced(Some(7), 1);

        let written = write_under(&mut stored, &[]).await.unwrap();

        assert_eq!(
            written,
            Some(9),
            "written over 8, the version another writer made"
        );
        assert_eq!(stored.writes(), 2, "the first write, at 7, changed nothing");
    }

    #[tokio::test]
    async fn a_write_that_keeps_losing_is_a_409() {
        let mut stored = Stored::raced(Some(7), 10);

        let err = write_under(&mut stored, &[]).await.unwrap_err();

        assert_eq!(err.status().as_u16(), 409);
    }

    #[tokio::test]
    async fn an_unconditional_write_guards_on_the_version_it_read() {
        let mut stored = Stored::new(Some(7));
        assert_eq!(write_under(&mut stored, &[]).await.unwrap(), Some(8));
        assert_eq!(
            write_under(&mut stored, &[("if-match", "\"v1\", \"v8\"")])
                .await
                .unwrap(),
            Some(9)
        );
    }
}
