//! Creates a thing and says whether the answer was a replay:
//! `cargo run -p api-client --example quick_start -- http://127.0.0.1:8080 <access token>`.

use api_client::types::ThingInput;
use api_client::{Client, ClientOptions, was_replayed};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut arguments = std::env::args().skip(1);
    let (Some(base_url), Some(token)) = (arguments.next(), arguments.next()) else {
        return Err("usage: quick_start <base url> <access token>".into());
    };

    let client = Client::new(&base_url, ClientOptions::with_access_token(token));
    let thing = client
        .create_thing()
        .body(ThingInput::builder().name("lamp"))
        .send()
        .await?;
    println!("{} (a replay: {})", thing.id, was_replayed(&thing));
    Ok(())
}
