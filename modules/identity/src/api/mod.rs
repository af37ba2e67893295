//! The HTTP operations of the identity module. Doc comments here are the OpenAPI text.

pub mod admin;
pub mod auth;
pub mod errors;
pub mod oauth;
pub mod throttle;
pub mod views;
