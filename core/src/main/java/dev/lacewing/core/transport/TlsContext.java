package dev.lacewing.core.transport;

import dev.lacewing.core.config.Config;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * The TLS of tls-port: Netty's SslHandler over a context built from the tls-* settings, with
 * OpenSSL (BoringSSL through netty-tcnative) where its native library loads and the JDK's
 * SSLEngine otherwise. A CONFIG SET of any tls-* setting builds a new context, as Redis's
 * applyTlsCfg does; connections already open keep the one they started with, new ones get the new
 * one. A context that cannot be built leaves the old one in place and fails the CONFIG SET. With
 * tls-port 0 the tls-* settings are only values, as in Redis, until CONFIG SET tls-port builds one.
 *
 * <p>Thread rule: {@link #newHandler} runs on any event loop and reads the current context from a
 * volatile field; {@link #reload} runs on the thread of the CONFIG SET (or the one starting the
 * server) and replaces it whole.
 */
public final class TlsContext {

    private static final System.Logger LOG = System.getLogger(TlsContext.class.getName());

    /** Redis's reasons, as CONFIG SET and start-up give them; the details go to the log. */
    public static final String RELOAD_FAILED = "Unable to update TLS configuration. Check server logs.";
    public static final String START_FAILED = "Failed to configure TLS. Check logs for more info.";

    private static final Set<String> PROTOCOLS = Set.of("TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3");

    private final Config config;
    private volatile Built current;

    private record Built(SslContext context, boolean preferServerCiphers) {
    }

    private TlsContext(Config config, Built first) {
        this.config = config;
        this.current = first;
    }

    /**
     * The TLS of the settings now: built at once when tls-port is set, else on the first
     * {@link #enable} (CONFIG SET tls-port); rebuilt on every CONFIG SET of another tls-* setting
     * while it is in use, as Redis's applyTlsCfg.
     *
     * @throws IllegalArgumentException {@link #START_FAILED}, the cause logged, when the settings do not make one
     */
    public static TlsContext start(Config config) {
        Built first = null;
        if (config.longValue("tls-port") != 0) {
            try {
                first = build(config);
            } catch (IllegalArgumentException e) {
                LOG.log(System.Logger.Level.WARNING, e.getMessage());
                throw new IllegalArgumentException(START_FAILED + " " + e.getMessage(), e);
            }
            LOG.log(System.Logger.Level.INFO, "TLS on tls-port with " + provider());
        }
        TlsContext tls = new TlsContext(config, first);
        config.onApply(name -> name.startsWith("tls-") && !name.equals("tls-port"), tls::reloadInUse);
        return tls;
    }

    /**
     * Builds the context from the settings now, for a tls-port set at runtime where there was none.
     *
     * @throws IllegalArgumentException {@link #RELOAD_FAILED} when the settings do not make one
     */
    public void enable() {
        reload();
    }

    /** Which library runs TLS here: OpenSSL (BoringSSL) when netty-tcnative loads, else the JDK's. */
    public static SslProvider provider() {
        return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    }

    /** Why OpenSSL is not used, for the log; empty when it is. */
    public static String openSslUnavailability() {
        Throwable cause = OpenSsl.unavailabilityCause();
        return cause == null ? "" : String.valueOf(cause);
    }

    /** A handler for one new connection, over the current context. */
    public SslHandler newHandler(ByteBufAllocator allocator) {
        Built built = current;
        SslHandler handler = built.context().newHandler(allocator);
        if (built.preferServerCiphers()) {
            SSLEngine engine = handler.engine();
            SSLParameters parameters = engine.getSSLParameters();
            parameters.setUseCipherSuitesOrder(true);
            engine.setSSLParameters(parameters);
        }
        return handler;
    }

    /** As applyTlsCfg: only while tls-port is set. */
    private void reloadInUse() {
        if (config.longValue("tls-port") != 0) {
            reload();
        }
    }

    /** Rebuilds from the settings now; IllegalArgumentException ({@link #RELOAD_FAILED}) keeps the old context. */
    private void reload() {
        try {
            current = build(config);
            LOG.log(System.Logger.Level.INFO, "TLS configuration reloaded");
        } catch (IllegalArgumentException e) {
            LOG.log(System.Logger.Level.WARNING, "Failed to update TLS configuration: " + e.getMessage());
            throw new IllegalArgumentException(RELOAD_FAILED, e);
        }
    }

    /** Redis's tlsConfigure, on Netty's builder; IllegalArgumentException says what is wrong. */
    private static Built build(Config config) {
        String certFile = config.value("tls-cert-file");
        String keyFile = config.value("tls-key-file");
        if (certFile.isEmpty()) {
            throw new IllegalArgumentException("No tls-cert-file configured!");
        }
        if (keyFile.isEmpty()) {
            throw new IllegalArgumentException("No tls-key-file configured!");
        }
        String password = config.value("tls-key-file-pass");
        String caFile = config.value("tls-ca-cert-file");
        String caDir = config.value("tls-ca-cert-dir");
        String clientAuth = config.value("tls-auth-clients");
        if (!clientAuth.equals("no") && caFile.isEmpty() && caDir.isEmpty()) {
            throw new IllegalArgumentException("Either tls-ca-cert-file or tls-ca-cert-dir must be specified when "
                + "tls-auth-clients is enabled!");
        }
        try {
            SslContextBuilder builder = SslContextBuilder.forServer(new File(certFile), new File(keyFile),
                    password.isEmpty() ? null : password)
                .sslProvider(provider())
                .protocols(protocols(config.value("tls-protocols")))
                .clientAuth(switch (clientAuth) {
                    case "yes" -> ClientAuth.REQUIRE;
                    case "optional" -> ClientAuth.OPTIONAL;
                    default -> ClientAuth.NONE;
                });
            List<X509Certificate> authorities = authorities(caFile, caDir);
            if (!authorities.isEmpty()) {
                builder.trustManager(authorities);
            }
            List<String> ciphers = ciphers(config.value("tls-ciphers"), config.value("tls-ciphersuites"));
            if (!ciphers.isEmpty()) {
                builder.ciphers(ciphers, SupportedCipherSuiteFilter.INSTANCE);
            }
            boolean caching = config.flag("tls-session-caching");
            if (caching) {
                builder.sessionCacheSize(config.longValue("tls-session-cache-size"))
                    .sessionTimeout(config.longValue("tls-session-cache-timeout"));
            }
            SslContext context = builder.build();
            if (!caching && context.sessionContext() instanceof OpenSslSessionContext openSsl) {
                openSsl.setSessionCacheEnabled(false);
            }
            return new Built(context, config.flag("tls-prefer-server-ciphers"));
        } catch (IOException | CertificateException | RuntimeException e) {
            throw new IllegalArgumentException("Failed to configure TLS: " + describe(e), e);
        }
    }

    /** tls-protocols' words; Redis's TLSv1.2 and TLSv1.3 when empty. */
    private static String[] protocols(String value) {
        if (value.isBlank()) {
            return new String[] {"TLSv1.2", "TLSv1.3"};
        }
        String[] words = value.strip().split("\\s+");
        for (String word : words) {
            if (PROTOCOLS.stream().noneMatch(word::equalsIgnoreCase)) {
                throw new IllegalArgumentException("Invalid tls-protocols specified. Use a combination of 'TLSv1', "
                    + "'TLSv1.1', 'TLSv1.2' and 'TLSv1.3'.");
            }
        }
        return Arrays.stream(words).map(word -> PROTOCOLS.stream().filter(word::equalsIgnoreCase).findFirst()
            .orElseThrow()).toArray(String[]::new);
    }

    /**
     * tls-ciphers (TLS 1.2, OpenSSL's cipher-list syntax: see {@link OpenSslCipherList}) then
     * tls-ciphersuites (TLS 1.3, colon-separated names).
     */
    private static List<String> ciphers(String tls12, String tls13) {
        List<String> all = new ArrayList<>(OpenSslCipherList.expand(tls12, provider() == SslProvider.OPENSSL));
        Arrays.stream(tls13.split(":")).map(String::strip).filter(name -> !name.isEmpty()).forEach(all::add);
        return all;
    }

    /** Every certificate in the CA file and in the files of the CA directory. */
    private static List<X509Certificate> authorities(String caFile, String caDir) throws IOException, CertificateException {
        List<X509Certificate> found = new ArrayList<>();
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        if (!caFile.isEmpty()) {
            found.addAll(certificates(factory, Files.readAllBytes(Path.of(caFile))));
        }
        if (!caDir.isEmpty()) {
            List<Path> files;
            try (Stream<Path> listing = Files.list(Path.of(caDir))) {
                files = listing.filter(Files::isRegularFile).sorted().toList();
            }
            for (Path file : files) {
                try {
                    found.addAll(certificates(factory, Files.readAllBytes(file)));
                } catch (CertificateException e) {
                    // As OpenSSL's CApath lookup: a file that holds no certificate is passed over.
                    LOG.log(System.Logger.Level.DEBUG, "tls-ca-cert-dir: no certificate in " + file);
                }
            }
        }
        return found;
    }

    private static List<X509Certificate> certificates(CertificateFactory factory, byte[] pem) throws CertificateException {
        List<X509Certificate> certificates = new ArrayList<>();
        try (InputStream in = new ByteArrayInputStream(pem)) {
            factory.generateCertificates(in).forEach(certificate -> certificates.add((X509Certificate) certificate));
        } catch (IOException e) {
            throw new CertificateException(e);
        }
        return certificates;
    }

    private static String describe(Throwable e) {
        StringBuilder text = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable inner = e.getCause(); inner != null && inner != inner.getCause(); inner = inner.getCause()) {
            text.append("; ").append(inner.getMessage());
        }
        return text.toString();
    }
}
