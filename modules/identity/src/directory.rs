//! The accounts as other modules may see them: `infra::UserDirectory`, answered from this
//! module's tables. The host hands it to every module, so none of them depends on this one.

use infra::database::now_ms;
use infra::{Contact, Database, DirectoryFuture, SessionEnd, UserDirectory};

use crate::repository::IdentityRepository;

/// The identity module's answer to `infra::UserDirectory`.
pub struct AccountDirectory {
    repository: IdentityRepository,
}

impl AccountDirectory {
    pub fn new(database: Database) -> Self {
        Self {
            repository: IdentityRepository::new(database),
        }
    }
}

impl UserDirectory for AccountDirectory {
    fn contact<'a>(&'a self, user_id: &'a str) -> DirectoryFuture<'a, Option<Contact>> {
        Box::pin(async move {
            let user = self.repository.user_by_id(user_id).await?;
            Ok(user.map(|user| Contact {
                confirmed_email: user.email_confirmed_at_ms.map(|_| user.email),
            }))
        })
    }

    fn session_end<'a>(
        &'a self,
        user_id: &'a str,
        session_id: &'a str,
    ) -> DirectoryFuture<'a, Option<SessionEnd>> {
        Box::pin(async move {
            let session = self
                .repository
                .session(session_id)
                .await?
                .filter(|session| session.user_id == user_id);
            let Some(session) = session else {
                return Ok(Some(SessionEnd::Revoked));
            };
            // The most telling cause first: a lock or a password change revokes the session too.
            Ok(match self.repository.user_by_id(user_id).await? {
                None => Some(SessionEnd::Revoked),
                Some(user) if user.locked_at_ms.is_some() => Some(SessionEnd::AccountLocked),
                Some(user) if user.outdates(&session) => Some(SessionEnd::PasswordChanged),
                Some(_) if !session.is_active(now_ms()) => Some(SessionEnd::Revoked),
                Some(_) => None,
            })
        })
    }

    fn current_roles<'a>(
        &'a self,
        user_id: &'a str,
        session_id: &'a str,
    ) -> DirectoryFuture<'a, Option<Vec<String>>> {
        Box::pin(self.repository.current_roles(user_id, session_id, now_ms()))
    }
}
