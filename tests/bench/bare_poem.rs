//! The service's stack against a bare poem handler over HTTP: the same wrk load on the
//! unwrapped fixture operation (a) and on a poem route doing the same work with no middleware
//! and no poem-openapi ([`crate::instructions::bare_poem`]), served from this process,
//! alternating, a ratio per round.

use std::time::Duration;

use anyhow::{Context as _, ensure};
use poem::Server;
use poem::listener::{Acceptor as _, Listener as _, TcpListener};

use crate::wrk::{Load, WrkResult};
use crate::{BODY, Options, PLAIN_PATH};

/// Throughputs per round, and the median of the per-round ratios stack / bare.
#[derive(Debug, Clone)]
pub struct BareComparison {
    pub bare: Vec<f64>,
    pub stack: Vec<f64>,
    pub median_ratio: f64,
}

/// `stack_url`: the full service's unwrapped operation (`.../fixtures/idem/plain`).
pub async fn compare(options: &Options, stack_url: &str) -> anyhow::Result<BareComparison> {
    let acceptor = TcpListener::bind("127.0.0.1:0").into_acceptor().await?;
    let address = acceptor
        .local_addr()
        .first()
        .and_then(|address| address.as_socket_addr().copied())
        .context("the bare server's address")?;
    let server =
        tokio::spawn(Server::new_with_acceptor(acceptor).run(crate::instructions::bare_poem()));
    let bare_url = format!("http://{address}{PLAIN_PATH}");
    let args = [BODY.to_owned(), "none".to_owned()];
    let run = |url: String| {
        let args = args.clone();
        async move {
            let result = Load {
                url: &url,
                connections: options.connections,
                duration: options.duration,
                script_args: &args,
                authorization: None,
            }
            .run()
            .await?;
            ensure!(
                result.requests > 0 && result.socket_errors == 0 && result.status_errors == 0,
                "{url}: {result:?}"
            );
            Ok::<WrkResult, anyhow::Error>(result)
        }
    };
    // Warm both up once, unmeasured.
    run(bare_url.clone()).await?;
    run(stack_url.to_owned()).await?;
    let (mut bare, mut stack, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..options.rounds {
        eprintln!("round {}/{}: bare poem vs (a)", round + 1, options.rounds);
        // Alternate which goes first, so that neither always follows an idle gap.
        let (b, s) = if round % 2 == 0 {
            let b = run(bare_url.clone()).await?;
            (b, run(stack_url.to_owned()).await?)
        } else {
            let s = run(stack_url.to_owned()).await?;
            (run(bare_url.clone()).await?, s)
        };
        bare.push(b.requests_per_second());
        stack.push(s.requests_per_second());
        ratios.push(s.requests_per_second() / b.requests_per_second());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    server.abort();
    ratios.sort_by(f64::total_cmp);
    Ok(BareComparison {
        median_ratio: ratios[ratios.len() / 2],
        bare,
        stack,
    })
}

/// A Markdown section.
pub fn print(comparison: &BareComparison) {
    let median = |values: &[f64]| {
        let mut values = values.to_vec();
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    println!(
        "### The stack against a bare poem handler (wrk, same load, alternating)\n\n\
         | server | req/s (median) |\n|---|---:|\n\
         | bare poem handler, no middleware | {:.0} |\n\
         | (a) unwrapped baseline, full stack | {:.0} |\n\n\
         Ratio (a) / bare poem, median of {} per-round ratios: **{:.2}**\n",
        median(&comparison.bare),
        median(&comparison.stack),
        comparison.bare.len(),
        comparison.median_ratio
    );
}
