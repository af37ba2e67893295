//! The `Location` of a created entity, built from the route that created it.

use poem::Request;

/// The address of the entity `id` created by `req` (a POST to the collection): the collection's
/// path as the client sent it, then the id. Built from the request rather than written out, so it
/// stays right wherever the API is mounted. (`original_uri` is what the server received; a nested
/// route's `uri` holds only the rest of the path. The e2e suite checks it on the real server:
/// poem's test client does not set `original_uri`.)
pub fn created_location(req: &Request, id: &str) -> String {
    let collection = req.original_uri().path().trim_end_matches('/');
    format!("{collection}/{id}")
}
