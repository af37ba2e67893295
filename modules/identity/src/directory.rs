//! The accounts as other modules may see them: `infra::UserDirectory`, answered from this
//! module's tables. The host hands it to every module, so none of them depends on this one.

use std::future::Future;
use std::pin::Pin;

use infra::{Contact, Database, UserDirectory};
use kernel::AppResult;

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
    fn contact<'a>(
        &'a self,
        user_id: &'a str,
    ) -> Pin<Box<dyn Future<Output = AppResult<Option<Contact>>> + Send + 'a>> {
        Box::pin(async move {
            let user = self.repository.user_by_id(user_id).await?;
            Ok(user.map(|user| Contact {
                confirmed_email: user.email_confirmed_at_ms.map(|_| user.email),
            }))
        })
    }
}
