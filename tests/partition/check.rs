//! The invariants, checked on the run's history once faults have healed: what every client
//! got (its log) and what the database holds (the effects table), by the history checker the
//! deterministic simulation runs (`shared/poem-idempotency/tests/simulation/history.rs`,
//! included by path as `crate::history`), over real answers, and one of its own (no 500):
//!
//! - a durable operation's effect is committed at most once per key, and exactly once if any
//!   attempt got a 2xx; every 2xx for the key is that effect, byte for byte the same answer;
//! - no answer is another request's: every 2xx names the body its request sent;
//! - a 422 only for a key the client did reuse for another body;
//! - after healing, every request has its final answer (a 2xx, or that 422);
//! - no 500: a fault is answered 503 (or waited out), never as a server error.
//!
//! For the operation whose effect is outside the database, double executions under faults
//! are counted and reported, not failed: failing open is the documented trade (ADR 0003).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

/// The two operations the clients call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Route {
    /// Its answer committed with its effect (`#[idempotent]`).
    Durable,
    /// Its answer kept only by the store (`outside_database`).
    Outside,
}

impl Route {
    pub fn path(self) -> &'static str {
        match self {
            Route::Durable => "/api/v1/fixtures/effects/transactional",
            Route::Outside => "/api/v1/fixtures/effects/plain",
        }
    }
}

/// A request a client means to have answered: one key, one body (its label).
#[derive(Debug, Clone)]
pub struct Intent {
    pub id: usize,
    pub client: usize,
    pub route: Route,
    pub key: String,
    /// The body's one field, unique to this intent: the answer must name it.
    pub label: String,
}

/// One attempt's answer, as the client got it (attempts that got none are in the log only).
#[derive(Debug, Clone)]
pub struct Answer {
    pub intent: usize,
    pub instance: String,
    pub status: u16,
    pub content_type: Option<String>,
    pub body: Vec<u8>,
    pub replay: bool,
}

/// A row of the effects table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Effect {
    pub id: String,
    pub label: String,
}

#[derive(Debug, Default)]
pub struct History {
    pub intents: Vec<Intent>,
    pub answers: Vec<Answer>,
    pub effects: Vec<Effect>,
}

/// What a passing history adds up to, for the report.
#[derive(Debug, Default)]
pub struct Totals {
    pub durable_keys: usize,
    pub outside_keys: usize,
    pub outside_keys_executed_twice: usize,
    pub replays: usize,
    pub statuses: BTreeMap<u16, usize>,
}

/// A change that plants a bug in a sound history.
type Plant = fn(&mut History);

/// A broken invariant, with the keys involved (the caller prints their log).
#[derive(Debug)]
pub struct Violation {
    pub what: String,
    pub keys: Vec<String>,
}

pub fn check(history: &History) -> Result<Totals, Violation> {
    let fail = |what: String, key: &str| {
        Err(Violation {
            what,
            keys: vec![key.to_owned()],
        })
    };
    let mut totals = Totals::default();
    for answer in &history.answers {
        *totals.statuses.entry(answer.status).or_default() += 1;
        totals.replays += usize::from(answer.replay);
        if answer.status == 500 {
            let intent = &history.intents[answer.intent];
            return fail(
                format!(
                    "{} got a 500 from {}: {}",
                    intent.key,
                    answer.instance,
                    String::from_utf8_lossy(&answer.body)
                ),
                &intent.key,
            );
        }
    }
    let by_label: BTreeMap<&str, &Intent> = history
        .intents
        .iter()
        .map(|intent| (intent.label.as_str(), intent))
        .collect();
    let mut effects = Vec::new();
    let mut effects_by_key: BTreeMap<&str, usize> = BTreeMap::new();
    for effect in &history.effects {
        let Some(intent) = by_label.get(effect.label.as_str()) else {
            return fail(
                format!("an effect no client asked for: {effect:?}"),
                &effect.label,
            );
        };
        *effects_by_key.entry(&intent.key).or_default() += 1;
        effects.push(crate::history::Effect {
            group: (
                intent.route == Route::Durable,
                intent.client,
                intent.key.clone(),
            ),
            id: Value::String(effect.id.clone()),
        });
    }
    let shared = crate::history::History {
        intents: history
            .intents
            .iter()
            .map(|intent| crate::history::Intent {
                id: intent.id,
                client: intent.client,
                durable: intent.route == Route::Durable,
                key: intent.key.clone(),
                names: vec![("label", Value::String(intent.label.clone()))],
            })
            .collect(),
        answers: history
            .answers
            .iter()
            .map(|answer| crate::history::Answer {
                intent: answer.intent,
                status: answer.status,
                content_type: answer.content_type.clone(),
                body: answer.body.clone(),
                replay: answer.replay,
                // Requests answered before the faults healed stay answered: only those left
                // were asked again.
                settles: true,
            })
            .collect(),
        effects,
        effect_field: "id",
    };
    if let Err(violation) = crate::history::check(&shared) {
        return Err(Violation {
            what: violation.what,
            keys: violation
                .groups
                .into_iter()
                .map(|(_, _, key)| key)
                .collect(),
        });
    }
    let keys: BTreeSet<(&str, Route)> = history
        .intents
        .iter()
        .map(|intent| (intent.key.as_str(), intent.route))
        .collect();
    for (key, route) in keys {
        match route {
            Route::Durable => totals.durable_keys += 1,
            Route::Outside => {
                totals.outside_keys += 1;
                totals.outside_keys_executed_twice +=
                    usize::from(effects_by_key.get(key).is_some_and(|n| *n > 1));
            }
        }
    }
    Ok(totals)
}

/// The checker, shown to catch what it must: each planted history is refused, a sound one
/// passes. Run before the real run, so a checker that accepts everything cannot pass it.
pub fn check_the_checker() -> anyhow::Result<()> {
    let sound = sound_history();
    if let Err(violation) = check(&sound) {
        anyhow::bail!("the checker refuses a sound history: {}", violation.what);
    }
    let planted: [(&str, Plant); 8] = [
        ("a durable effect committed twice", |h| {
            h.effects.push(Effect {
                id: "e9".into(),
                label: "k1/a".into(),
            })
        }),
        ("a 2xx whose effect never committed", |h| {
            h.effects.clear();
        }),
        ("two different 2xx answers", |h| {
            let mut other = h.answers[0].clone();
            other.body = br#"{"id":"e1","label":"k1/a","more":1}"#.to_vec();
            h.answers.push(other);
        }),
        ("an answer to another body", |h| {
            h.answers[0].body = br#"{"id":"e1","label":"k2/a"}"#.to_vec();
        }),
        ("a 422 for a key never reused", |h| {
            h.answers[0].status = 422;
        }),
        ("a request left without its final answer", |h| {
            h.answers.retain(|answer| answer.intent != 1);
        }),
        ("a durable answer naming another effect", |h| {
            h.answers[0].body = br#"{"id":"e7","label":"k1/a"}"#.to_vec();
        }),
        ("a 500", |h| {
            let mut other = h.answers[0].clone();
            other.status = 500;
            h.answers.push(other);
        }),
    ];
    for (name, plant) in planted {
        let mut history = sound_history();
        plant(&mut history);
        if check(&history).is_ok() {
            anyhow::bail!("the checker accepts a history with {name}");
        }
    }
    Ok(())
}

fn sound_history() -> History {
    let intent = |id, route, key: &str, label: &str| Intent {
        id,
        client: 0,
        route,
        key: key.into(),
        label: label.into(),
    };
    let answer = |intent, body: &str| Answer {
        intent,
        instance: "i1".into(),
        status: 201,
        content_type: Some("application/json; charset=utf-8".into()),
        body: body.as_bytes().to_vec(),
        replay: false,
    };
    History {
        intents: vec![
            intent(0, Route::Durable, "k1", "k1/a"),
            intent(1, Route::Outside, "k2", "k2/a"),
        ],
        answers: vec![
            answer(0, r#"{"id":"e1","label":"k1/a"}"#),
            answer(1, r#"{"id":"e2","label":"k2/a"}"#),
        ],
        effects: vec![
            Effect {
                id: "e1".into(),
                label: "k1/a".into(),
            },
            Effect {
                id: "e2".into(),
                label: "k2/a".into(),
            },
        ],
    }
}
