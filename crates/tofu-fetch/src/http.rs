//! HTTP(S) GETs as OpenTofu's registry and mirror clients make them: a
//! timeout per request, retries on what go-retryablehttp retries
//! (connection failures, 429 and 5xx but 501), a size limit on every
//! body, a bearer token where the CLI configuration has one for the host,
//! and TLS against the system's certificate store (with `SSL_CERT_FILE`
//! and `SSL_CERT_DIR` as Go honours them) or against given roots.

use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use ureq::tls::{parse_pem, Certificate, PemItem, RootCerts, TlsConfig};
use ureq::ResponseExt;

/// Which certificates a server may be signed by.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum TrustedRoots {
    /// The system's store, or `SSL_CERT_FILE` / `SSL_CERT_DIR` when set.
    #[default]
    System,
    /// Only the certificates of these PEM files (a test CA).
    PemFiles(Vec<PathBuf>),
}

/// How requests are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpSettings {
    /// Each request's time limit, body included (OpenTofu's
    /// `TF_REGISTRY_CLIENT_TIMEOUT`, 10 s); a package download gets
    /// [`HttpSettings::download_timeout`].
    pub request_timeout: Duration,
    pub download_timeout: Duration,
    /// Retries of a metadata request (`TF_REGISTRY_DISCOVERY_RETRY`, 1).
    pub retries: u32,
    /// Retries of a package download (`TF_PROVIDER_DOWNLOAD_RETRY`, 2).
    pub download_retries: u32,
    /// The wait before the first retry; doubled for each next one.
    pub retry_wait: Duration,
    pub roots: TrustedRoots,
}

impl Default for HttpSettings {
    fn default() -> HttpSettings {
        HttpSettings {
            request_timeout: Duration::from_secs(10),
            download_timeout: Duration::from_secs(600),
            retries: 1,
            download_retries: 2,
            retry_wait: Duration::from_secs(1),
            roots: TrustedRoots::System,
        }
    }
}

/// A response: its status, the URL it came from (after redirects) and
/// its body.
#[derive(Debug)]
pub struct Fetched {
    pub status: u16,
    pub url: String,
    pub body: Vec<u8>,
}

/// The client, built once per fetcher.
pub struct Http {
    settings: HttpSettings,
    agent: ureq::Agent,
    download_agent: ureq::Agent,
}

impl std::fmt::Debug for Http {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Http")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl Http {
    /// A client with `settings`; an error says why the certificates could
    /// not be loaded.
    pub fn new(settings: HttpSettings) -> Result<Http, String> {
        let roots = load_roots(&settings.roots)?;
        let agent = |timeout: Duration| -> ureq::Agent {
            let tls = TlsConfig::builder()
                .root_certs(RootCerts::Specific(Arc::clone(&roots)))
                .build();
            ureq::Agent::config_builder()
                .timeout_global(Some(timeout))
                .http_status_as_error(false)
                .max_redirects(10)
                .user_agent(concat!("tofu-lens/", env!("CARGO_PKG_VERSION")))
                .tls_config(tls)
                .build()
                .into()
        };
        Ok(Http {
            agent: agent(settings.request_timeout),
            download_agent: agent(settings.download_timeout),
            settings,
        })
    }

    /// GETs `url` (a metadata request), with `token` as a bearer token,
    /// reading at most `limit` bytes of body.
    pub fn get(&self, url: &str, token: Option<&str>, limit: u64) -> Result<Fetched, String> {
        self.get_with(
            &self.agent,
            self.settings.retries,
            url,
            token,
            limit,
            &|_, _| true,
        )
    }

    /// GETs a package archive; `received` hears the bytes read so far
    /// (and the announced length) after each chunk, and stops the
    /// download (an error, [`CANCELLED`]) by answering false.
    pub fn download(
        &self,
        url: &str,
        token: Option<&str>,
        limit: u64,
        received: &dyn Fn(u64, Option<u64>) -> bool,
    ) -> Result<Fetched, String> {
        self.get_with(
            &self.download_agent,
            self.settings.download_retries,
            url,
            token,
            limit,
            received,
        )
    }

    fn get_with(
        &self,
        agent: &ureq::Agent,
        retries: u32,
        url: &str,
        token: Option<&str>,
        limit: u64,
        received: &dyn Fn(u64, Option<u64>) -> bool,
    ) -> Result<Fetched, String> {
        let mut wait = self.settings.retry_wait;
        let mut attempt = 0;
        loop {
            let outcome = get_once(agent, url, token, limit, received);
            let retry = match &outcome {
                Ok(fetched) => {
                    fetched.status == 429 || (fetched.status >= 500 && fetched.status != 501)
                }
                Err(Failure::Transport(_)) => true,
                Err(Failure::Final(_)) => false,
            };
            if !retry || attempt >= retries {
                return outcome.map_err(|failure| match failure {
                    Failure::Transport(message) | Failure::Final(message) => message,
                });
            }
            tracing::debug!(url, attempt, "retrying");
            thread::sleep(wait);
            wait = wait.saturating_mul(2);
            attempt += 1;
        }
    }
}

enum Failure {
    /// Worth another try (the connection failed).
    Transport(String),
    /// Not (too large, a bad URL).
    Final(String),
}

/// The error of a download its caller stopped.
pub const CANCELLED: &str = "cancelled";

fn get_once(
    agent: &ureq::Agent,
    url: &str,
    token: Option<&str>,
    limit: u64,
    received: &dyn Fn(u64, Option<u64>) -> bool,
) -> Result<Fetched, Failure> {
    let mut request = agent.get(url);
    if let Some(token) = token {
        request = request.header("Authorization", format!("Bearer {token}"));
    }
    let mut response = request.call().map_err(|error| match error {
        ureq::Error::BadUri(_) | ureq::Error::Http(_) => Failure::Final(format!("{url}: {error}")),
        ureq::Error::Timeout(_) => Failure::Transport(format!("{url}: timed out")),
        other => Failure::Transport(format!("{url}: {other}")),
    })?;
    let status = response.status().as_u16();
    let final_url = response.get_uri().to_string();
    let announced = response
        .headers()
        .get("content-length")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if announced.is_some_and(|length| length > limit) {
        return Err(Failure::Final(format!(
            "{final_url}: the response is larger than {limit} bytes"
        )));
    }
    let mut reader = response
        .body_mut()
        .with_config()
        .limit(limit.saturating_add(1))
        .reader();
    let mut body = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(error) => return Err(Failure::Transport(format!("{final_url}: {error}"))),
        };
        body.extend_from_slice(chunk.get(..n).unwrap_or_default());
        let so_far = u64::try_from(body.len()).unwrap_or(u64::MAX);
        if so_far > limit {
            return Err(Failure::Final(format!(
                "{final_url}: the response is larger than {limit} bytes"
            )));
        }
        if !received(so_far, announced) {
            return Err(Failure::Final(CANCELLED.to_owned()));
        }
    }
    Ok(Fetched {
        status,
        url: final_url,
        body,
    })
}

/// The root certificates: the system's (rustls-native-certs reads
/// `SSL_CERT_FILE` and `SSL_CERT_DIR` first, as Go does) or the given
/// files'.
fn load_roots(roots: &TrustedRoots) -> Result<Arc<Vec<Certificate<'static>>>, String> {
    let certificates: Vec<Certificate<'static>> = match roots {
        TrustedRoots::System => {
            let found = rustls_native_certs::load_native_certs();
            for error in &found.errors {
                tracing::debug!(%error, "a system certificate could not be loaded");
            }
            if found.certs.is_empty() {
                let why = found
                    .errors
                    .first()
                    .map_or_else(|| "none found".to_owned(), ToString::to_string);
                return Err(format!("no trusted certificates could be loaded: {why}"));
            }
            found
                .certs
                .iter()
                .map(|cert| Certificate::from_der(cert).to_owned())
                .collect()
        }
        TrustedRoots::PemFiles(files) => {
            let mut certificates = Vec::new();
            for file in files {
                let text =
                    std::fs::read(file).map_err(|error| format!("{}: {error}", file.display()))?;
                let before = certificates.len();
                for item in parse_pem(&text) {
                    if let Ok(PemItem::Certificate(certificate)) = item {
                        certificates.push(certificate);
                    }
                }
                if certificates.len() == before {
                    return Err(format!("{}: no PEM certificate in it", file.display()));
                }
            }
            certificates
        }
    };
    Ok(Arc::new(certificates))
}
