//! Protocol bugs planted for the deterministic simulation to find (`tests/simulation`), so that
//! its passing means something: each plant is one condition in the crate's code, off unless a
//! simulation run switches it on for its own thread. Without the `simulation` feature nothing
//! here is compiled in: every check is a constant `false` the compiler removes.
//!
//! The plants and the simulation seeds that find them are listed in the crate's TESTING.md.

/// A protocol bug the simulation can switch on, one at a time.
#[cfg_attr(not(feature = "simulation"), allow(dead_code))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bug {
    /// The memory store completes a record that is not the caller's claim (no fencing token).
    UnfencedCompletion,
    /// The memory store renews a record whatever its token or state (a bare `PEXPIRE`).
    UnfencedRenewal,
    /// The guard never renews its lease: a handler slower than `lock_ttl` loses it.
    NoRenewal,
    /// The guard scopes keys without the caller: one caller's key is another's.
    ScopeWithoutCaller,
    /// The guard fingerprints a request without its body: a reused key replays another body's
    /// answer.
    FingerprintWithoutBody,
    /// A durable outcome that meets another execution's committed outcome does not roll back:
    /// the effect commits twice.
    DurableConflictIgnored,
}

#[cfg(feature = "simulation")]
thread_local! {
    // Per thread: the simulation runs each seed on one thread (a current-thread runtime), and
    // several seeds at once on several threads.
    static PLANTED: std::cell::Cell<Option<Bug>> = const { std::cell::Cell::new(None) };
}

/// Switches `bug` on for this thread (`None`: none), until switched again.
#[cfg(feature = "simulation")]
pub fn plant(bug: Option<Bug>) {
    PLANTED.with(|planted| planted.set(bug));
}

/// Whether `bug` is switched on for this thread.
#[cfg(feature = "simulation")]
pub(crate) fn is(bug: Bug) -> bool {
    PLANTED.with(|planted| planted.get() == Some(bug))
}

#[cfg(not(feature = "simulation"))]
pub(crate) const fn is(_bug: Bug) -> bool {
    false
}

/// The caller as the key's scope sees it: every caller is one under
/// [`Bug::ScopeWithoutCaller`].
pub(crate) fn caller(caller: crate::Caller) -> crate::Caller {
    if is(Bug::ScopeWithoutCaller) {
        return crate::Caller::Anonymous(String::new());
    }
    caller
}

/// The body as the fingerprint sees it: none under [`Bug::FingerprintWithoutBody`].
pub(crate) fn body(body: &[u8]) -> &[u8] {
    if is(Bug::FingerprintWithoutBody) {
        return &[];
    }
    body
}
