//! The history checker: the guarantees, checked on what every client got and what the database
//! committed. One file, run by two tests: the deterministic simulation (`check.rs` here, which
//! adds invariants of its simulated store) and the template's partition test with real processes
//! (`tests/partition/check.rs`, which includes this file by path). Only std and serde_json.
//!
//! - every 2xx names the request it answers (its caller, its body): never another's;
//! - a 422 only for a key its client did reuse for another body;
//! - a durable operation's effect is committed at most once per key, exactly once if any attempt
//!   got a 2xx, and every 2xx for the key is one answer, byte for byte, naming that effect;
//! - after healing, every request has its final answer (a 2xx, or that 422).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

/// A key as the invariants group requests: (durable, client, key).
pub type Group = (bool, usize, String);

/// A request a client means to have answered: one key, one body.
#[derive(Debug, Clone)]
pub struct Intent {
    pub id: usize,
    pub client: usize,
    /// Whether its operation commits its answer with its effect.
    pub durable: bool,
    pub key: String,
    /// What a 2xx answering this intent's own request names: (field, value), e.g. its caller
    /// and its body's label.
    pub names: Vec<(&'static str, Value)>,
}

impl Intent {
    pub fn group(&self) -> Group {
        (self.durable, self.client, self.key.clone())
    }
}

/// One attempt's answer, as its client got it.
#[derive(Debug, Clone)]
pub struct Answer {
    pub intent: usize,
    pub status: u16,
    pub content_type: Option<String>,
    pub body: Vec<u8>,
    pub replay: bool,
    /// Whether it may stand as the intent's final answer once faults healed (the simulation
    /// asks every intent again after healing; the partition test only those left unanswered).
    pub settles: bool,
}

/// An effect the database committed: whose, and its id as the answer names it.
#[derive(Debug, Clone)]
pub struct Effect {
    pub group: Group,
    pub id: Value,
}

#[derive(Debug, Default)]
pub struct History {
    pub intents: Vec<Intent>,
    pub answers: Vec<Answer>,
    /// The durable operations' effects (others' need not be listed).
    pub effects: Vec<Effect>,
    /// The field of a durable 2xx that names its effect (`Effect::id`).
    pub effect_field: &'static str,
}

/// A broken guarantee, with the groups involved.
#[derive(Debug)]
pub struct Violation {
    pub what: String,
    pub groups: Vec<Group>,
}

/// A 2xx as the client got it: status, content type, body.
type Answered<'a> = (u16, Option<&'a str>, &'a [u8]);

pub fn check(history: &History) -> Result<(), Violation> {
    let fail = |what: String, group: &Group| {
        Err(Violation {
            what,
            groups: vec![group.clone()],
        })
    };
    // How many intents each key has: more than one, and the client reused it.
    let mut intents_per_group: BTreeMap<Group, usize> = BTreeMap::new();
    for intent in &history.intents {
        *intents_per_group.entry(intent.group()).or_default() += 1;
    }
    let mut answered: BTreeMap<Group, BTreeSet<Answered>> = BTreeMap::new();
    for answer in &history.answers {
        let intent = &history.intents[answer.intent];
        if (200..300).contains(&answer.status) {
            let body: Value = serde_json::from_slice(&answer.body).unwrap_or_default();
            if let Some((field, expected)) = intent
                .names
                .iter()
                .find(|(field, expected)| body.get(field) != Some(expected))
            {
                return fail(
                    format!(
                        "c{} {} (intent {}) got an answer to another request: its {field} is \
                         {}, the request's {expected} (replay: {}): {}",
                        intent.client,
                        intent.key,
                        intent.id,
                        body.get(field).unwrap_or(&Value::Null),
                        answer.replay,
                        String::from_utf8_lossy(&answer.body)
                    ),
                    &intent.group(),
                );
            }
            answered.entry(intent.group()).or_default().insert((
                answer.status,
                answer.content_type.as_deref(),
                &answer.body,
            ));
        } else if answer.status == 422 {
            let group = intent.group();
            if intents_per_group[&group] < 2 {
                return fail(
                    format!(
                        "intent {} got a 422 for a key its client never reused",
                        intent.id
                    ),
                    &group,
                );
            }
        }
    }

    let mut effects_by_group: BTreeMap<&Group, Vec<&Effect>> = BTreeMap::new();
    for effect in &history.effects {
        effects_by_group
            .entry(&effect.group)
            .or_default()
            .push(effect);
    }
    for group in intents_per_group.keys().filter(|group| group.0) {
        let effects = effects_by_group.get(group).map_or(&[][..], Vec::as_slice);
        if effects.len() > 1 {
            let ids: Vec<String> = effects.iter().map(|effect| effect.id.to_string()).collect();
            return fail(
                format!(
                    "a durable effect committed {} times: {}",
                    effects.len(),
                    ids.join(" and ")
                ),
                group,
            );
        }
        let Some(answers) = answered.get(group) else {
            continue;
        };
        let [effect] = effects[..] else {
            return fail(
                "a durable operation answered 2xx, and its effect never committed".to_owned(),
                group,
            );
        };
        if answers.len() > 1 {
            return fail(
                format!(
                    "{} different 2xx answers for one durable key",
                    answers.len()
                ),
                group,
            );
        }
        for (_, _, body) in answers {
            let body: Value = serde_json::from_slice(body).unwrap_or_default();
            if body.get(history.effect_field) != Some(&effect.id) {
                return fail(
                    format!(
                        "the durable answer names effect {}, the database committed {}",
                        body.get(history.effect_field).unwrap_or(&Value::Null),
                        effect.id
                    ),
                    group,
                );
            }
        }
    }

    let settled: BTreeSet<usize> = history
        .answers
        .iter()
        .filter(|answer| {
            answer.settles && ((200..300).contains(&answer.status) || answer.status == 422)
        })
        .map(|answer| answer.intent)
        .collect();
    for intent in &history.intents {
        if !settled.contains(&intent.id) {
            return fail(
                format!(
                    "intent {} ({}) had no final answer after the faults healed",
                    intent.id, intent.key
                ),
                &intent.group(),
            );
        }
    }
    Ok(())
}
