//! `#[intents]`: declaring, next to each poem-openapi operation, whether it is safe to retry.
//!
//! Put it above `#[OpenApi]` on an API impl. On every operation it reads one of:
//!
//! - `#[idempotent]` (or `#[idempotent(key_required)]`, `#[idempotent(on_store_failure =
//!   "reject")]`, `#[idempotent(outside_database = "what it does")]`,
//!   `#[idempotent(fingerprint_headers = ["X-Tenant"])]`, or several): the operation is wrapped
//!   by the idempotency guard, by adding (or composing with) its `transform`.
//!   Declaring and guarding are one act, so one can never drift from the other. The guard also
//!   learns whether the operation is secured (one of its arguments is a security scheme), so
//!   that it never scopes such a request anonymously. Its effect is in the database unless it
//!   says otherwise, so it must commit its answer with its effect: return `Recorded<...>` (a
//!   compile error otherwise). `outside_database` names what it does instead (a blank one does
//!   not compile).
//! - `#[non_idempotent("why")]`: the operation is deliberately not deduplicated; the
//!   justification is required and must not be blank (a compile error otherwise).
//! - `#[inherit_intent(path::TO::CONST)]`: the declaration a shared building block exports as an
//!   `poem_idempotency::intent::Intent` constant; the operation is guarded exactly when that intent is
//!   idempotent, and a blank inherited justification fails to compile too. Overriding is simply
//!   declaring one of the two markers above instead.
//!
//! A POST, PUT, PATCH or DELETE operation with neither does not compile. The macro strips the
//! markers (poem-openapi would reject them) and implements `poem_idempotency::intent::DeclaredIntents`
//! for the API type: the record the host turns into the `Idempotency-Key` header, the
//! `x-idempotency` extension and the 409/422 responses in the OpenAPI document.

use proc_macro::TokenStream;
use proc_macro2::TokenStream as TokenStream2;
use quote::{format_ident, quote};
use syn::punctuated::Punctuated;
use syn::visit_mut::VisitMut;
use syn::{Attribute, Expr, ExprLit, ImplItem, ItemImpl, Lit, LitStr, Meta, Token, Type};

/// See the crate documentation.
#[proc_macro_attribute]
pub fn intents(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand(attr.into(), item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// What one operation declares.
enum Declaration {
    Idempotent {
        key_required: bool,
        /// `"execute"` (fail open, the default) or `"reject"` (fail closed).
        on_store_failure: OnStoreFailure,
        /// What the operation does instead of a database effect, if it says so.
        outside_database: Option<LitStr>,
        /// Headers that belong to its request besides the preconditions, as declared.
        fingerprint_headers: Vec<LitStr>,
    },
    NonIdempotent {
        justification: LitStr,
    },
    Inherited {
        intent: syn::Path,
    },
}

fn expand(attr: TokenStream2, item: TokenStream2) -> syn::Result<TokenStream2> {
    if !attr.is_empty() {
        return Err(syn::Error::new_spanned(
            attr,
            "#[intents] takes no arguments",
        ));
    }
    let mut item: ItemImpl = syn::parse2(item)?;
    let type_name = type_name(&item.self_ty)?;
    let prefix = openapi_prefix_path(&item.attrs)?;
    let mut entries = Vec::new();
    let mut guards = Vec::new();
    let mut errors: Vec<syn::Error> = Vec::new();

    for impl_item in &mut item.items {
        let ImplItem::Fn(function) = impl_item else {
            continue;
        };
        let declaration = match take_declaration(&mut function.attrs) {
            Ok(declaration) => declaration,
            Err(err) => {
                errors.push(err);
                continue;
            }
        };
        let Some(oai_index) = function.attrs.iter().position(|a| a.path().is_ident("oai")) else {
            if declaration.is_some() {
                errors.push(syn::Error::new_spanned(
                    &function.sig.ident,
                    "an intent marks an operation: this method has no #[oai(...)]",
                ));
            }
            continue;
        };
        let mut metas = oai_metas(&function.attrs[oai_index])?;
        let method = string_arg(&metas, "method")
            .unwrap_or_else(|| "get".to_owned())
            .to_ascii_uppercase();
        let path = string_arg(&metas, "path").unwrap_or_default();
        let name = function.sig.ident.clone();
        let is_unsafe = matches!(method.as_str(), "POST" | "PUT" | "PATCH" | "DELETE");
        let Some(declaration) = declaration else {
            if is_unsafe {
                errors.push(syn::Error::new_spanned(
                    &name,
                    format!(
                        "`{name}` ({method} {prefix}{path}) changes state: declare #[idempotent] or \
                         #[non_idempotent(\"why a retry must execute again\")]"
                    ),
                ));
            }
            continue;
        };
        let Some(operation_id) = string_arg(&metas, "operation_id") else {
            errors.push(syn::Error::new_spanned(
                &name,
                format!("`{name}` declares an intent, so it needs an operation_id to find it in the OpenAPI document"),
            ));
            continue;
        };
        let full_path = format!("{prefix}{path}");
        let secured = secured_expression(&function.sig);
        // What wraps the endpoint, if anything: the guard for an idempotent declaration, a
        // guard chosen by the constant for an inherited one.
        let (intent, wrap) = match &declaration {
            Declaration::Idempotent {
                key_required,
                on_store_failure,
                outside_database,
                fingerprint_headers,
            } => {
                let durable = outside_database.is_none();
                if durable && !returns_recorded(&function.sig) {
                    errors.push(syn::Error::new_spanned(
                        &function.sig.output,
                        format!(
                            "`{name}` is #[idempotent], so it commits its answer with its \
                             database effect: return `Recorded<...>` (made by \
                             `OutcomeRecorder::begin(pool)` then `.commit(answer)`), or declare \
                             #[idempotent(outside_database = \"what it does instead\")]"
                        ),
                    ));
                    continue;
                }
                let on_store_failure = on_store_failure.tokens();
                let effect = match outside_database {
                    None => quote!(::poem_idempotency::intent::Effect::Database),
                    Some(what) => {
                        quote!(::poem_idempotency::intent::Effect::OutsideDatabase(#what))
                    }
                };
                let fingerprint_headers = quote!(&[#(#fingerprint_headers),*]);
                (
                    quote!(::poem_idempotency::intent::Intent::Idempotent {
                        key_required: #key_required,
                        on_store_failure: #on_store_failure,
                        effect: #effect,
                        fingerprint_headers: #fingerprint_headers,
                    }),
                    Some(
                        quote!(::poem_idempotency::guard(inner, ::poem_idempotency::GuardOptions {
                            key_required: #key_required,
                            on_store_failure: #on_store_failure,
                            secured: #secured,
                            durable: #durable,
                            fingerprint_headers: #fingerprint_headers,
                        })),
                    ),
                )
            }
            Declaration::NonIdempotent { justification } => (
                quote!(::poem_idempotency::intent::Intent::NonIdempotent { justification: #justification }),
                None,
            ),
            Declaration::Inherited { intent } => {
                // Checked while compiling: an inherited blank justification does not build, nor
                // an inherited durable intent on an operation that does not return `Recorded`.
                let returns_recorded = returns_recorded(&function.sig);
                let message = format!(
                    "`{name}` inherits a durable intent: it must return `Recorded<...>` (made by \
                     `OutcomeRecorder::begin(pool)` then `.commit(answer)`)"
                );
                guards.push(quote! {
                    const _: ::poem_idempotency::intent::Intent = ::poem_idempotency::intent::Intent::checked(#intent);
                    const _: () = ::std::assert!(#returns_recorded || !#intent.is_durable(), #message);
                });
                (
                    quote!(#intent),
                    Some(quote!(::poem_idempotency::guard_declared(inner, #intent, #secured))),
                )
            }
        };
        if let Some(wrap) = wrap {
            let guard_name = format_ident!("__idempotency_guard_{}_{}", type_name, name);
            let inner = match string_arg(&metas, "transform") {
                Some(existing) => {
                    let existing = format_ident!("{}", existing);
                    quote!(#existing(endpoint))
                }
                None => quote!(endpoint),
            };
            guards.push(quote! {
                #[doc(hidden)]
                #[allow(non_snake_case)]
                fn #guard_name<E: ::poem_idempotency::__private::poem::Endpoint + 'static>(
                    endpoint: E,
                ) -> impl ::poem_idempotency::__private::poem::Endpoint {
                    let inner = #inner;
                    #wrap
                }
            });
            set_transform(&mut metas, &guard_name.to_string());
        }
        function.attrs[oai_index] = syn::parse_quote!(#[oai(#metas)]);
        entries.push(quote! {
            ::poem_idempotency::intent::OperationIntent {
                operation_id: #operation_id,
                method: #method,
                path: #full_path,
                intent: #intent,
            }
        });
    }

    if let Some(mut first) = errors.pop() {
        for err in errors {
            first.combine(err);
        }
        return Err(first);
    }
    let self_ty = &item.self_ty;
    let (impl_generics, _, where_clause) = item.generics.split_for_impl();
    Ok(quote! {
        #item
        #(#guards)*
        impl #impl_generics ::poem_idempotency::intent::DeclaredIntents for #self_ty #where_clause {
            fn declared_intents() -> ::std::vec::Vec<::poem_idempotency::intent::OperationIntent> {
                ::std::vec![#(#entries),*]
            }
        }
    })
}

/// Removes the intent markers from `attrs` and returns the one declared, if any.
fn take_declaration(attrs: &mut Vec<Attribute>) -> syn::Result<Option<Declaration>> {
    let mut found: Option<(Declaration, &'static str)> = None;
    let mut error: Option<syn::Error> = None;
    attrs.retain(|attr| {
        let parsed = if attr.path().is_ident("idempotent") {
            parse_idempotent(attr).map(|d| Some((d, "idempotent")))
        } else if attr.path().is_ident("non_idempotent") {
            parse_non_idempotent(attr).map(|d| Some((d, "non_idempotent")))
        } else if attr.path().is_ident("inherit_intent") {
            attr.parse_args::<syn::Path>()
                .map(|intent| Some((Declaration::Inherited { intent }, "inherit_intent")))
        } else {
            return true;
        };
        match parsed {
            Ok(Some(declaration)) if found.is_some() => {
                let message = format!(
                    "an operation declares one intent; #[{}] repeats it",
                    declaration.1
                );
                push_error(&mut error, syn::Error::new_spanned(attr, message));
            }
            Ok(declaration) => found = declaration,
            Err(err) => push_error(&mut error, err),
        }
        false
    });
    match error {
        Some(err) => Err(err),
        None => Ok(found.map(|(declaration, _)| declaration)),
    }
}

fn push_error(slot: &mut Option<syn::Error>, err: syn::Error) {
    match slot {
        Some(existing) => existing.combine(err),
        None => *slot = Some(err),
    }
}

/// What a keyed request gets when the store cannot be reached.
#[derive(Clone, Copy)]
enum OnStoreFailure {
    Execute,
    Reject,
}

impl OnStoreFailure {
    fn tokens(self) -> TokenStream2 {
        match self {
            Self::Execute => quote!(::poem_idempotency::intent::OnStoreFailure::Execute),
            Self::Reject => quote!(::poem_idempotency::intent::OnStoreFailure::Reject),
        }
    }
}

const IDEMPOTENT_USAGE: &str = "expected #[idempotent], or #[idempotent(...)] with any of \
     `key_required`, `outside_database = \"what it does instead\"`, \
     `on_store_failure = \"reject\"` (or \"execute\", the default) and \
     `fingerprint_headers = [\"X-Tenant\"]`";

/// The conditional request headers every fingerprint covers (`key::PRECONDITION_HEADERS`).
const PRECONDITION_HEADERS: [&str; 5] = [
    "if-match",
    "if-none-match",
    "if-modified-since",
    "if-unmodified-since",
    "if-range",
];

/// The header names in `fingerprint_headers = [...]`: each a token (RFC 9110 §5.1), none a
/// precondition (every fingerprint covers those) or named twice, whatever the case.
fn parse_fingerprint_headers(value: &Expr) -> syn::Result<Vec<LitStr>> {
    let Expr::Array(array) = value else {
        return Err(syn::Error::new_spanned(
            value,
            "fingerprint_headers is a list of header names, e.g. [\"X-Tenant\"]",
        ));
    };
    let mut names: Vec<LitStr> = Vec::new();
    for element in &array.elems {
        let Expr::Lit(ExprLit {
            lit: Lit::Str(name),
            ..
        }) = element
        else {
            return Err(syn::Error::new_spanned(
                element,
                "a header name is a string literal, e.g. \"X-Tenant\"",
            ));
        };
        let text = name.value();
        let is_token_character =
            |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
        if text.is_empty() || !text.chars().all(is_token_character) {
            return Err(syn::Error::new_spanned(
                name,
                format!("{text:?} is not a header name"),
            ));
        }
        if PRECONDITION_HEADERS
            .iter()
            .any(|precondition| precondition.eq_ignore_ascii_case(&text))
        {
            return Err(syn::Error::new_spanned(
                name,
                format!("every fingerprint covers the precondition {text}: drop it"),
            ));
        }
        if names
            .iter()
            .any(|named| named.value().eq_ignore_ascii_case(&text))
        {
            return Err(syn::Error::new_spanned(
                name,
                format!("{text} is named twice"),
            ));
        }
        names.push(name.clone());
    }
    Ok(names)
}

/// Whether the operation's return type mentions `Recorded` (as `Recorded<R>` or inside
/// `AppResult<Recorded<R>>`): only `DurableTransaction::commit` (or `PreparedOutcome::record`)
/// makes one.
fn returns_recorded(signature: &syn::Signature) -> bool {
    match &signature.output {
        syn::ReturnType::Type(_, ty) => quote!(#ty).into_iter().flat_map(flatten_tokens).any(
            |token| matches!(token, proc_macro2::TokenTree::Ident(ident) if ident == "Recorded"),
        ),
        syn::ReturnType::Default => false,
    }
}

fn flatten_tokens(token: proc_macro2::TokenTree) -> Vec<proc_macro2::TokenTree> {
    match token {
        proc_macro2::TokenTree::Group(group) => group
            .stream()
            .into_iter()
            .flat_map(flatten_tokens)
            .collect(),
        other => vec![other],
    }
}

fn parse_idempotent(attr: &Attribute) -> syn::Result<Declaration> {
    let mut key_required = false;
    let mut outside_database = None;
    let mut on_store_failure = OnStoreFailure::Execute;
    let mut fingerprint_headers = Vec::new();
    match &attr.meta {
        Meta::Path(_) => {}
        Meta::List(list) => {
            let options = list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)?;
            for option in options {
                match &option {
                    Meta::Path(path) if path.is_ident("key_required") => key_required = true,
                    Meta::Path(path) if path.is_ident("transactional") => {
                        return Err(syn::Error::new_spanned(
                            path,
                            "every #[idempotent] operation is transactional now (its answer is \
                             committed with its effect): drop `transactional`",
                        ));
                    }
                    Meta::NameValue(nv) if nv.path.is_ident("outside_database") => {
                        outside_database = Some(match &nv.value {
                            Expr::Lit(ExprLit {
                                lit: Lit::Str(what),
                                ..
                            }) if !what.value().trim().is_empty() => what.clone(),
                            other => {
                                return Err(syn::Error::new_spanned(
                                    other,
                                    "outside_database says what the operation does instead of \
                                     a database effect, e.g. \"queues a mail\": it cannot be blank",
                                ));
                            }
                        });
                    }
                    Meta::NameValue(nv) if nv.path.is_ident("fingerprint_headers") => {
                        fingerprint_headers = parse_fingerprint_headers(&nv.value)?;
                    }
                    Meta::NameValue(nv) if nv.path.is_ident("on_store_failure") => {
                        on_store_failure = match &nv.value {
                            Expr::Lit(ExprLit {
                                lit: Lit::Str(s), ..
                            }) if s.value() == "reject" => OnStoreFailure::Reject,
                            Expr::Lit(ExprLit {
                                lit: Lit::Str(s), ..
                            }) if s.value() == "execute" => OnStoreFailure::Execute,
                            other => {
                                return Err(syn::Error::new_spanned(
                                    other,
                                    "on_store_failure is \"execute\" (fail open, the default) or \"reject\" (answer 503)",
                                ));
                            }
                        }
                    }
                    other => return Err(syn::Error::new_spanned(other, IDEMPOTENT_USAGE)),
                }
            }
        }
        Meta::NameValue(_) => return Err(syn::Error::new_spanned(attr, IDEMPOTENT_USAGE)),
    }
    Ok(Declaration::Idempotent {
        key_required,
        on_store_failure,
        outside_database,
        fingerprint_headers,
    })
}

/// An expression that is `true` when one of the operation's arguments is a security scheme,
/// i.e. when the OpenAPI document will declare a security requirement for it. Evaluated once,
/// when the guard is built; poem-openapi's own `ApiExtractor` answers, so a custom scheme
/// counts as well as `BearerAuth`.
fn secured_expression(signature: &syn::Signature) -> TokenStream2 {
    let checks = signature.inputs.iter().filter_map(|input| match input {
        syn::FnArg::Typed(argument) => {
            let mut ty = (*argument.ty).clone();
            // The guard is a free function: the method's lifetimes are not in scope there.
            EraseLifetimes.visit_type_mut(&mut ty);
            Some(quote! {
                || !<#ty as ::poem_idempotency::__private::poem_openapi::ApiExtractor<'_>>::security_schemes().is_empty()
            })
        }
        syn::FnArg::Receiver(_) => None,
    });
    quote!((false #(#checks)*))
}

/// Replaces every lifetime in a type with `'_`, and gives elided references one explicitly.
struct EraseLifetimes;

impl VisitMut for EraseLifetimes {
    fn visit_lifetime_mut(&mut self, lifetime: &mut syn::Lifetime) {
        *lifetime = syn::Lifetime::new("'_", lifetime.span());
    }

    fn visit_type_reference_mut(&mut self, reference: &mut syn::TypeReference) {
        reference.lifetime = Some(syn::Lifetime::new("'_", proc_macro2::Span::call_site()));
        syn::visit_mut::visit_type_reference_mut(self, reference);
    }
}

fn parse_non_idempotent(attr: &Attribute) -> syn::Result<Declaration> {
    let justification: LitStr = attr.parse_args().map_err(|_| {
        syn::Error::new_spanned(
            attr,
            "#[non_idempotent(\"...\")] needs a justification: why must a retry execute again?",
        )
    })?;
    if justification.value().trim().is_empty() {
        return Err(syn::Error::new_spanned(
            &justification,
            "a blank justification explains nothing: say why a retry of this operation must execute again",
        ));
    }
    Ok(Declaration::NonIdempotent { justification })
}

fn oai_metas(attr: &Attribute) -> syn::Result<Punctuated<Meta, Token![,]>> {
    attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
}

fn string_arg(metas: &Punctuated<Meta, Token![,]>, name: &str) -> Option<String> {
    metas.iter().find_map(|meta| match meta {
        Meta::NameValue(nv) if nv.path.is_ident(name) => match &nv.value {
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

fn set_transform(metas: &mut Punctuated<Meta, Token![,]>, function: &str) {
    let value = LitStr::new(function, proc_macro2::Span::call_site());
    let replaced = metas.iter_mut().any(|meta| match meta {
        Meta::NameValue(nv) if nv.path.is_ident("transform") => {
            nv.value = syn::parse_quote!(#value);
            true
        }
        _ => false,
    });
    if !replaced {
        metas.push(syn::parse_quote!(transform = #value));
    }
}

/// The `prefix_path` of the `#[OpenApi(...)]` on the impl, or "".
fn openapi_prefix_path(attrs: &[Attribute]) -> syn::Result<String> {
    for attr in attrs {
        if attr
            .path()
            .segments
            .last()
            .is_some_and(|s| s.ident == "OpenApi")
        {
            if let Meta::List(_) = attr.meta {
                let metas =
                    attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)?;
                return Ok(string_arg(&metas, "prefix_path").unwrap_or_default());
            }
            return Ok(String::new());
        }
    }
    Err(syn::Error::new(
        proc_macro2::Span::call_site(),
        "#[intents] goes above #[OpenApi] on an API impl",
    ))
}

fn type_name(ty: &Type) -> syn::Result<String> {
    match ty {
        Type::Path(path) => path
            .path
            .segments
            .last()
            .map(|segment| segment.ident.to_string())
            .ok_or_else(|| syn::Error::new_spanned(ty, "expected a type name")),
        other => Err(syn::Error::new_spanned(
            other,
            "#[intents] goes on an impl of a named type",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand_str(item: &str) -> Result<String, String> {
        expand(TokenStream2::new(), item.parse().unwrap())
            .map(|tokens| tokens.to_string())
            .map_err(|err| err.to_string())
    }

    #[test]
    fn an_idempotent_operation_is_guarded_and_recorded() {
        let out = expand_str(
            r#"#[OpenApi(prefix_path = "/things")]
            impl Api {
                #[idempotent]
                #[oai(path = "/", method = "post", operation_id = "createThing")]
                async fn create(&self) -> Result<Recorded<Created>, CreateError> {}
            }"#,
        )
        .unwrap();
        assert!(
            out.contains("transform = \"__idempotency_guard_Api_create\""),
            "{out}"
        );
        assert!(out.contains("fn __idempotency_guard_Api_create"), "{out}");
        assert!(out.contains("key_required : false"), "{out}");
        assert!(out.contains("OnStoreFailure :: Execute"), "{out}");
        assert!(
            out.contains("effect : :: poem_idempotency :: intent :: Effect :: Database"),
            "{out}"
        );
        assert!(out.contains("durable : true"), "{out}");
        assert!(out.contains("\"/things/\""), "{out}");
        assert!(
            !out.contains("# [idempotent]"),
            "the marker is stripped: {out}"
        );
    }

    #[test]
    fn an_existing_transform_is_composed_inside_the_guard() {
        let out = expand_str(
            r#"#[OpenApi]
            impl Api {
                #[idempotent(key_required)]
                #[oai(path = "/", method = "put", operation_id = "put", transform = "audit")]
                async fn put(&self) -> AppResult<Recorded<Done>> {}
            }"#,
        )
        .unwrap();
        assert!(out.contains("let inner = audit (endpoint)"), "{out}");
        assert!(out.contains("key_required : true"), "{out}");
    }

    #[test]
    fn an_idempotent_operation_must_return_a_recorded_answer() {
        let err = expand_str(
            r#"#[OpenApi]
            impl Api {
                #[idempotent]
                #[oai(path = "/reset", method = "post", operation_id = "reset")]
                async fn reset(&self) -> AppResult<Done> {}
            }"#,
        )
        .expect_err("a durable operation that does not return Recorded<...>");

        assert!(err.contains("return `Recorded<...>`"), "{err}");
        assert!(err.contains("outside_database"), "{err}");
    }

    #[test]
    fn an_effect_outside_the_database_is_named_and_needs_no_record() {
        let out = expand_str(
            r#"#[OpenApi]
            impl Api {
                #[idempotent(outside_database = "queues a mail")]
                #[oai(path = "/forgot", method = "post", operation_id = "forgot")]
                async fn forgot(&self) -> AppResult<Done> {}
            }"#,
        )
        .unwrap();

        assert!(
            out.contains("Effect :: OutsideDatabase (\"queues a mail\")"),
            "{out}"
        );
        assert!(out.contains("durable : false"), "{out}");
    }

    #[test]
    fn a_blank_effect_outside_the_database_does_not_compile() {
        let err = expand_str(
            r#"#[OpenApi]
            impl Api {
                #[idempotent(outside_database = "  ")]
                #[oai(path = "/forgot", method = "post", operation_id = "forgot")]
                async fn forgot(&self) -> AppResult<Done> {}
            }"#,
        )
        .unwrap_err();

        assert!(err.contains("cannot be blank"), "{err}");
    }

    #[test]
    fn the_retired_transactional_option_says_what_replaced_it() {
        let err = expand_str(
            r#"#[OpenApi]
            impl Api {
                #[idempotent(transactional)]
                #[oai(path = "/reset", method = "post", operation_id = "reset")]
                async fn reset(&self) -> AppResult<Recorded<Done>> {}
            }"#,
        )
        .unwrap_err();

        assert!(err.contains("drop `transactional`"), "{err}");
    }

    #[test]
    fn a_fail_closed_operation_is_declared_and_guarded_as_such() {
        let out = expand_str(
            r#"#[OpenApi]
            impl Api {
                #[idempotent(key_required, on_store_failure = "reject")]
                #[oai(path = "/pay", method = "post", operation_id = "pay")]
                async fn pay(&self) -> Recorded<Paid> {}
            }"#,
        )
        .unwrap();
        assert!(out.contains("key_required : true"), "{out}");
        assert_eq!(out.matches("OnStoreFailure :: Reject").count(), 2, "{out}");
    }

    #[test]
    fn headers_declared_part_of_the_request_are_declared_and_guarded_as_such() {
        let out = expand_str(
            r#"#[OpenApi]
            impl Api {
                #[idempotent(fingerprint_headers = ["X-Tenant", "x-region"])]
                #[oai(path = "/pay", method = "post", operation_id = "pay")]
                async fn pay(&self) -> Recorded<Paid> {}
            }"#,
        )
        .unwrap();

        assert_eq!(
            out.matches("fingerprint_headers : & [\"X-Tenant\" , \"x-region\"]")
                .count(),
            2,
            "in the intent and the guard: {out}"
        );
    }

    #[test]
    fn without_declared_headers_the_fingerprint_covers_none_besides_the_preconditions() {
        let out = expand_str(
            r#"#[OpenApi]
            impl Api {
                #[idempotent]
                #[oai(path = "/pay", method = "post", operation_id = "pay")]
                async fn pay(&self) -> Recorded<Paid> {}
            }"#,
        )
        .unwrap();

        assert_eq!(
            out.matches("fingerprint_headers : & []").count(),
            2,
            "{out}"
        );
    }

    #[test]
    fn a_fingerprint_header_that_is_no_header_name_or_covered_already_does_not_compile() {
        for (headers, expected) in [
            (r#""X-Tenant""#, "a list of header names"),
            (r#"[X_TENANT]"#, "a string literal"),
            (r#"["X Tenant"]"#, "\"X Tenant\" is not a header name"),
            (r#"[""]"#, "\"\" is not a header name"),
            (r#"["X-Tenant:"]"#, "is not a header name"),
            (r#"["If-Match"]"#, "covers the precondition If-Match"),
            (r#"["if-range"]"#, "covers the precondition if-range"),
            (r#"["X-Tenant", "x-tenant"]"#, "x-tenant is named twice"),
        ] {
            let err = expand_str(&format!(
                r#"#[OpenApi]
                impl Api {{
                    #[idempotent(fingerprint_headers = {headers})]
                    #[oai(path = "/pay", method = "post", operation_id = "pay")]
                    async fn pay(&self) -> Recorded<Paid> {{}}
                }}"#
            ))
            .unwrap_err();

            assert!(err.contains(expected), "{headers}: {err}");
        }
    }

    #[test]
    fn every_token_character_may_name_a_header() {
        let out = expand_str(
            r#"#[OpenApi]
            impl Api {
                #[idempotent(fingerprint_headers = ["Az09!#$%&'*+-.^_`|~"])]
                #[oai(path = "/pay", method = "post", operation_id = "pay")]
                async fn pay(&self) -> Recorded<Paid> {}
            }"#,
        );

        assert!(out.is_ok(), "{out:?}");
    }

    #[test]
    fn an_unknown_store_failure_policy_does_not_compile() {
        let err = expand_str(
            r#"#[OpenApi]
            impl Api {
                #[idempotent(on_store_failure = "retry")]
                #[oai(path = "/pay", method = "post", operation_id = "pay")]
                async fn pay(&self) {}
            }"#,
        )
        .unwrap_err();
        assert!(err.contains("\"execute\""), "{err}");
    }

    #[test]
    fn the_guard_asks_each_argument_whether_it_is_a_security_scheme() {
        let out = expand_str(
            r#"#[OpenApi]
            impl Api {
                #[idempotent(outside_database = "a test effect")]
                #[oai(path = "/x", method = "post", operation_id = "x")]
                async fn x<'a>(&self, auth: BearerAuth, req: &Request, data: Data<&'a Thing>) {}
            }"#,
        )
        .unwrap();
        assert!(
            out.contains("< BearerAuth as :: poem_idempotency :: __private :: poem_openapi :: ApiExtractor < '_ >> :: security_schemes ()"),
            "{out}"
        );
        assert!(out.contains("< & '_ Request as"), "{out}");
        assert!(out.contains("< Data < & '_ Thing > as"), "{out}");
        assert!(out.contains("secured : (false ||"), "{out}");
    }

    #[test]
    fn a_non_idempotent_operation_keeps_its_justification_and_is_not_guarded() {
        let out = expand_str(
            r#"#[OpenApi]
            impl Api {
                #[non_idempotent("every call issues a fresh token pair")]
                #[oai(path = "/login", method = "post", operation_id = "login")]
                async fn login(&self) {}
            }"#,
        )
        .unwrap();
        assert!(
            out.contains("every call issues a fresh token pair"),
            "{out}"
        );
        assert!(!out.contains("transform"), "{out}");
    }

    #[test]
    fn a_blank_justification_does_not_compile() {
        let err = expand_str(
            r#"#[OpenApi]
            impl Api {
                #[non_idempotent("   ")]
                #[oai(path = "/", method = "post", operation_id = "x")]
                async fn x(&self) {}
            }"#,
        )
        .unwrap_err();
        assert!(err.contains("blank justification"), "{err}");
    }

    #[test]
    fn an_unsafe_operation_without_an_intent_does_not_compile() {
        let err = expand_str(
            r#"#[OpenApi]
            impl Api {
                #[oai(path = "/x", method = "delete", operation_id = "x")]
                async fn remove(&self) {}
            }"#,
        )
        .unwrap_err();
        assert!(err.contains("`remove` (DELETE /x) changes state"), "{err}");
    }

    #[test]
    fn a_safe_operation_needs_no_intent() {
        assert!(
            expand_str(
                r#"#[OpenApi]
            impl Api {
                #[oai(path = "/x", method = "get")]
                async fn read(&self) {}
            }"#,
            )
            .is_ok()
        );
    }

    #[test]
    fn an_inherited_intent_guards_by_the_constant_and_is_checked() {
        let out = expand_str(
            r#"#[OpenApi]
            impl Api {
                #[inherit_intent(base::LOCK_INTENT)]
                #[oai(path = "/lock", method = "post", operation_id = "lock")]
                async fn lock(&self) {}
            }"#,
        )
        .unwrap();
        assert!(
            out.contains("guard_declared (inner , base :: LOCK_INTENT , (false))"),
            "{out}"
        );
        assert!(
            out.contains("Intent :: checked (base :: LOCK_INTENT)"),
            "{out}"
        );
        assert!(out.contains("intent : base :: LOCK_INTENT"), "{out}");
        assert!(
            out.contains("assert ! (false || ! base :: LOCK_INTENT . is_durable ()"),
            "an inherited durable intent needs a recorded answer: {out}"
        );
    }

    #[test]
    fn two_intents_on_one_operation_do_not_compile() {
        let err = expand_str(
            r#"#[OpenApi]
            impl Api {
                #[idempotent]
                #[non_idempotent("because")]
                #[oai(path = "/x", method = "post", operation_id = "x")]
                async fn x(&self) {}
            }"#,
        )
        .unwrap_err();
        assert!(err.contains("one intent"), "{err}");
    }
}
