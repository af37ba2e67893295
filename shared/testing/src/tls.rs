//! Certificates made at test time: a CA of its own and a server certificate it signs, for
//! `localhost` and 127.0.0.1, written as PEM files a server can load.

use std::io;
use std::path::{Path, PathBuf};

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DistinguishedName, DnType,
    ExtendedKeyUsagePurpose, IsCa, KeyPair, KeyUsagePurpose,
};

/// A fresh CA and a server certificate it signed, as files in one directory.
pub struct TlsFiles {
    ca_pem: Vec<u8>,
    ca_path: PathBuf,
    certificate_path: PathBuf,
    key_path: PathBuf,
}

impl TlsFiles {
    /// Makes a CA and a server certificate for `localhost` and 127.0.0.1 signed by it, and
    /// writes `ca.crt`, `server.crt` and `server.key` into `dir`.
    pub fn generate(dir: &Path) -> io::Result<Self> {
        let (ca_pem, certificate_pem, key_pem) = generate_pem().map_err(io::Error::other)?;
        let files = Self {
            ca_pem: ca_pem.into_bytes(),
            ca_path: dir.join("ca.crt"),
            certificate_path: dir.join("server.crt"),
            key_path: dir.join("server.key"),
        };
        std::fs::write(&files.ca_path, &files.ca_pem)?;
        std::fs::write(&files.certificate_path, certificate_pem)?;
        std::fs::write(&files.key_path, key_pem)?;
        Ok(files)
    }

    /// The CA certificate (PEM): what a client must trust.
    pub fn ca_certificate_pem(&self) -> &[u8] {
        &self.ca_pem
    }

    pub fn ca_certificate_path(&self) -> &Path {
        &self.ca_path
    }

    /// The server's certificate (PEM), signed by the CA.
    pub fn certificate_path(&self) -> &Path {
        &self.certificate_path
    }

    /// The server's private key (PEM, PKCS#8).
    pub fn key_path(&self) -> &Path {
        &self.key_path
    }

    /// What `redis::Client::build_with_tls` needs to trust this CA (and only it).
    pub fn redis_certificates(&self) -> redis::TlsCertificates {
        redis::TlsCertificates {
            client_tls: None,
            root_cert: Some(self.ca_pem.clone()),
        }
    }
}

/// (CA certificate, server certificate, server key), all PEM.
fn generate_pem() -> Result<(String, String, String), rcgen::Error> {
    let mut ca_params = CertificateParams::new(Vec::<String>::new())?;
    ca_params.distinguished_name = common_name("testing CA");
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate()?)?;

    let mut server_params =
        CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])?;
    server_params.distinguished_name = common_name("localhost");
    server_params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    server_params.use_authority_key_identifier_extension = true;
    let server_key = KeyPair::generate()?;
    let server_certificate = server_params.signed_by(&server_key, &ca)?;

    Ok((
        ca.pem(),
        server_certificate.pem(),
        server_key.serialize_pem(),
    ))
}

fn common_name(name: &str) -> DistinguishedName {
    let mut distinguished_name = DistinguishedName::new();
    distinguished_name.push(DnType::CommonName, name);
    distinguished_name
}
