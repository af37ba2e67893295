//! Server processes that cannot outlive the test process.
//!
//! A server a test forgets (the shared ones live in statics, which are never dropped) or a test
//! process that is killed would leave an orphan `redis-server` behind. So every server gets a
//! watchdog: a tiny `sh` whose stdin is a pipe from the test process. Only the test process
//! holds the write end, so the watchdog's `read` returns when that process ends, however it
//! ends (normal exit, panic, SIGKILL); it then kills the server and removes its directory.
//! No polling, no libc.

use std::io;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// Waits for the end of its stdin, then SIGKILLs the server (`$1`), waits briefly for it to
/// be gone (bounded: a zombie may linger if nothing reaps it) and removes its directory (`$2`).
const WATCHDOG: &str = r#"read -r unused
kill -9 "$1" 2>/dev/null
n=0
while kill -0 "$1" 2>/dev/null && [ "$n" -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
[ -n "$2" ] && rm -rf "$2"
"#;

/// A server process and its watchdog.
pub(crate) struct Supervised {
    server: Child,
    watchdog: Child,
}

impl Supervised {
    /// Spawns `command` (its standard streams are discarded) with a watchdog that kills it,
    /// and removes `dir`, once the test process is gone.
    pub(crate) fn spawn(mut command: Command, dir: &Path) -> io::Result<Self> {
        let mut server = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        let watchdog = Command::new("sh")
            .arg("-c")
            .arg(WATCHDOG)
            .arg("testing-watchdog")
            .arg(server.id().to_string())
            .arg(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        match watchdog {
            Ok(watchdog) => Ok(Self { server, watchdog }),
            Err(err) => {
                let _ = server.kill();
                let _ = server.wait();
                Err(err)
            }
        }
    }

    /// Whether the server has exited (e.g. it could not bind its port).
    pub(crate) fn has_exited(&mut self) -> bool {
        !matches!(self.server.try_wait(), Ok(None))
    }
}

impl Drop for Supervised {
    /// SIGKILLs the server, like a crash. The watchdog goes first: it must neither kill a pid
    /// the system may reuse nor remove a directory a restart will need.
    fn drop(&mut self) {
        let _ = self.watchdog.kill();
        let _ = self.watchdog.wait();
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}
