//! Swagger UI in a real browser (headless Chromium through chromedriver): "Try it out" makes safe
//! retries easy. Needs Chromium (`CHROME` or `CHROMIUM` if set, else `chromium`,
//! `chromium-browser` or `google-chrome` on `PATH`) and `chromedriver` on `PATH`; left out
//! loudly without them (`testing::tools`). On failure a screenshot is written to
//! `target/swagger-ui-failure.png`.

use std::os::unix::process::CommandExt as _;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use testing::tools::{Suite, Tool};

use serde_json::{Value, json};

use crate::identity::Identity;

/// The W3C WebDriver element key.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A headless Chromium session, spoken to over the WebDriver protocol (plain JSON over HTTP).
struct Browser {
    http: reqwest::Client,
    session: String,
    driver: Child,
}

impl Browser {
    async fn start() -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        // A process group of its own, so that dropping the browser ends Chromium's processes
        // too (they outlive chromedriver otherwise).
        let driver = Command::new(Tool::Chromedriver.require())
            .process_group(0)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let http = reqwest::Client::new();
        let base = format!("http://127.0.0.1:{port}");
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        while http.get(format!("{base}/status")).send().await.is_err() {
            assert!(
                tokio::time::Instant::now() < deadline,
                "chromedriver did not start"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let created: Value = http
            .post(format!("{base}/session"))
            .json(&json!({ "capabilities": { "alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": {
                    "binary": Tool::Chromium.require(),
                    "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                             "--disable-dev-shm-usage", "--window-size=1400,4000",
                             "--no-first-run", "--disable-background-networking",
                             "--disable-component-update", "--disable-sync"]
                }
            } } }))
            .send()
            .await
            .expect("a browser session")
            .json()
            .await
            .unwrap();
        let id = created["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no browser session: {created}"));
        Self {
            http,
            session: format!("{base}/session/{id}"),
            driver,
        }
    }

    async fn command(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Value,
    ) -> Result<Value, String> {
        let request = self
            .http
            .request(method.clone(), format!("{}{path}", self.session));
        let request = if method == reqwest::Method::GET {
            request
        } else {
            request.json(&body)
        };
        let answer: Value = request
            .send()
            .await
            .map_err(|err| err.to_string())?
            .json()
            .await
            .map_err(|err| err.to_string())?;
        match answer["value"].get("error") {
            Some(error) => Err(format!("{path}: {error}: {}", answer["value"]["message"])),
            None => Ok(answer["value"].clone()),
        }
    }

    async fn goto(&self, url: &str) -> Result<(), String> {
        self.command(reqwest::Method::POST, "/url", json!({ "url": url }))
            .await
            .map(drop)
    }

    /// The element `css` selects, waiting up to 20 s for it.
    async fn find(&self, css: &str) -> Result<String, String> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let found = self
                .command(
                    reqwest::Method::POST,
                    "/element",
                    json!({ "using": "css selector", "value": css }),
                )
                .await;
            match found {
                Ok(element) => return Ok(element[ELEMENT].as_str().unwrap_or_default().to_owned()),
                Err(err) if tokio::time::Instant::now() > deadline => {
                    return Err(format!("{css}: {err}"));
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    }

    /// Clicks `css` as a user would, after scrolling it into view (through the page's script, so
    /// that Swagger UI's sticky headers cannot intercept it).
    async fn click(&self, css: &str) -> Result<(), String> {
        let element = self.find(css).await?;
        self.command(
            reqwest::Method::POST,
            "/execute/sync",
            json!({
                "script": "arguments[0].scrollIntoView({block: 'center'}); arguments[0].click();",
                "args": [{ ELEMENT: element }],
            }),
        )
        .await
        .map(drop)
    }

    async fn type_into(&self, css: &str, text: &str) -> Result<(), String> {
        let element = self.find(css).await?;
        self.command(
            reqwest::Method::POST,
            &format!("/element/{element}/value"),
            json!({ "text": text }),
        )
        .await
        .map(drop)
    }

    async fn text(&self, css: &str) -> Result<String, String> {
        let element = self.find(css).await?;
        let text = self
            .command(
                reqwest::Method::GET,
                &format!("/element/{element}/text"),
                Value::Null,
            )
            .await?;
        Ok(text.as_str().unwrap_or_default().to_owned())
    }

    /// Waits up to 20 s for the text of `css` to satisfy `done`; that text.
    async fn text_until(&self, css: &str, done: impl Fn(&str) -> bool) -> Result<String, String> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let text = self.text(css).await.unwrap_or_default();
            if done(&text) {
                return Ok(text);
            }
            if tokio::time::Instant::now() > deadline {
                return Err(format!("{css} never got there; it reads: {text}"));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn screenshot_to(&self, path: &std::path::Path) {
        if let Ok(Value::String(png)) = self
            .command(reqwest::Method::GET, "/screenshot", Value::Null)
            .await
        {
            use base64::Engine as _;
            if let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(png) {
                let _ = std::fs::write(path, bytes);
            }
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // The whole group: chromedriver and the Chromium it started.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.driver.id())])
            .status();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

const OPERATION: &str = "#operations-Things-createThing";

/// The id in the body of the latest response Swagger UI shows for createThing, once it differs
/// from `previous`.
async fn next_created_id(browser: &Browser, previous: Option<&str>) -> Result<String, String> {
    let body = browser
        .text_until(
            &format!("{OPERATION} .live-responses-table .response-col_description pre"),
            |text| {
                serde_json::from_str::<Value>(text)
                    .ok()
                    .and_then(|body| body["id"].as_str().map(str::to_owned))
                    .is_some_and(|id| Some(id.as_str()) != previous)
            },
        )
        .await?;
    let body: Value = serde_json::from_str(&body).map_err(|err| err.to_string())?;
    Ok(body["id"].as_str().unwrap_or_default().to_owned())
}

/// How many things the caller of `token` holds.
async fn things_of(identity: &Identity, token: &str) -> u64 {
    let page: Value = identity
        .app
        .request(reqwest::Method::GET, "/api/v1/things")
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    page["total"].as_u64().unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn swagger_ui_sends_a_fresh_key_per_try_and_replays_a_typed_one() {
    testing::needs_tools_of!(Suite::Browser);
    let identity = Identity::spawn().await;
    let alice = identity.signed_in("alice@example.com").await;
    let browser = Browser::start().await;
    let flow = async {
        browser
            .goto(&identity.app.url("/docs/#/Things/createThing"))
            .await?;
        browser.click(".auth-wrapper .authorize").await?;
        browser
            .type_into(".auth-container input", &alice.access)
            .await?;
        browser.click(".auth-btn-wrapper .authorize").await?;
        browser.click(".auth-btn-wrapper .btn-done").await?;
        browser.click(&format!("{OPERATION} .try-out__btn")).await?;
        browser.click(&format!("{OPERATION} .execute")).await?;
        let first = next_created_id(&browser, None).await?;
        browser.click(&format!("{OPERATION} .execute")).await?;
        let second = next_created_id(&browser, Some(&first)).await?;
        let created_without_a_key = things_of(&identity, &alice.access).await;

        browser
            .type_into(
                &format!("{OPERATION} tr[data-param-name=\"Idempotency-Key\"] input"),
                "typed-in-swagger",
            )
            .await?;
        // Swagger UI takes a typed value after a short debounce.
        tokio::time::sleep(Duration::from_millis(800)).await;
        browser.click(&format!("{OPERATION} .execute")).await?;
        let typed = next_created_id(&browser, Some(&second)).await?;
        browser.click(&format!("{OPERATION} .execute")).await?;
        let replay = browser
            .text_until(&format!("{OPERATION} .live-responses-table"), |text| {
                text.contains("x-idempotent-replay: true")
            })
            .await?;
        Ok::<_, String>((first, second, created_without_a_key, typed, replay))
    };
    let outcome = flow.await;
    if outcome.is_err() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../target/swagger-ui-failure.png");
        browser.screenshot_to(&path).await;
    }
    let (first, second, created_without_a_key, typed, replay) =
        outcome.unwrap_or_else(|err| panic!("{err} (screenshot: target/swagger-ui-failure.png)"));

    assert_ne!(first, second, "each try made its own thing");
    assert_eq!(created_without_a_key, 2);
    assert!(
        replay.contains(&typed),
        "the replay is the typed key's first answer: {replay}"
    );
    assert_eq!(
        things_of(&identity, &alice.access).await,
        3,
        "the typed key's second try created nothing"
    );
}
