package dev.lacewing.it.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.core.transport.TlsContext;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.netty.handler.ssl.SslProvider;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;

/**
 * tls-port on every engine and transport, with redis-cli --tls, lettuce's rediss:// and Jedis
 * over SSL: client certificates as tls-auth-clients asks, plain and TLS ports side by side, and
 * certificates reloaded by CONFIG SET. The certificates (EC P-256) are made with openssl in a
 * temporary directory for the run: two CAs, a server certificate from each, and a client one.
 */
class TlsTest {

    @TempDir
    static Path certificates;

    @BeforeAll
    static void makeCertificates() {
        for (String ca : List.of("ca", "ca2")) {
            openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", ca + ".key", "-out", ca + ".crt", "-days", "2", "-subj", "/CN=Lacewing test " + ca);
        }
        write("server.ext", "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
        write("client.ext", "extendedKeyUsage=clientAuth\n");
        signed("server", "ca", "server.ext");
        signed("server2", "ca2", "server.ext");
        signed("client", "ca", "client.ext");
    }

    private static void signed(String name, String ca, String extensions) {
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
            name + ".key", "-out", name + ".csr", "-subj", "/CN=" + name);
        openssl("x509", "-req", "-in", name + ".csr", "-CA", ca + ".crt", "-CAkey", ca + ".key", "-CAcreateserial",
            "-out", name + ".crt", "-days", "2", "-extfile", extensions);
    }

    private static void openssl(String... arguments) {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(arguments));
        assertEquals(0, run(command, certificates.toFile()).exitCode, () -> "openssl " + String.join(" ", arguments));
    }

    private static void write(String name, String text) {
        try {
            Files.writeString(certificates.resolve(name), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String file(String name) {
        return certificates.resolve(name).toString();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A server with tls-port on a free port, the CA "ca" and the given client authentication; plain port off. */
    private static LacewingServer tlsServer(Target target, String authClients) {
        return Servers.builder(target)
            .set("tls-port", Integer.toString(freePort()))
            .set("tls-cert-file", file("server.crt"))
            .set("tls-key-file", file("server.key"))
            .set("tls-ca-cert-file", file("ca.crt"))
            .set("tls-auth-clients", authClients)
            .start();
    }

    private record Output(int exitCode, String text) {
    }

    private static Output run(List<String> command, File directory) {
        try {
            Process process = new ProcessBuilder(command).directory(directory).redirectErrorStream(true).start();
            process.getOutputStream().close();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("timed out: " + command);
            }
            return new Output(process.exitValue(), new String(process.getInputStream().readAllBytes(),
                StandardCharsets.UTF_8).strip());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static Output redisCli(int port, boolean withClientCertificate, String... command) {
        List<String> line = new ArrayList<>(List.of("redis-cli", "--tls", "--cacert", file("ca.crt"), "-p",
            Integer.toString(port)));
        if (withClientCertificate) {
            line.addAll(List.of("--cert", file("client.crt"), "--key", file("client.key")));
        }
        line.addAll(List.of(command));
        return run(line, certificates.toFile());
    }

    private static RedisClient lettuce(int port, String ca, boolean withClientCertificate) {
        SslOptions.Builder ssl = SslOptions.builder().jdkSslProvider().trustManager(new File(file(ca + ".crt")));
        if (withClientCertificate) {
            ssl.keyManager(new File(file("client.crt")), new File(file("client.key")), null);
        }
        RedisClient client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(port).withSsl(true)
            .withTimeout(Duration.ofSeconds(10)).build());
        client.setOptions(ClientOptions.builder().sslOptions(ssl.build()).build());
        return client;
    }

    private static String lettuceCall(int port, String ca, boolean withClientCertificate, String key, String value) {
        RedisClient client = lettuce(port, ca, withClientCertificate);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            connection.sync().set(key, value);
            return connection.sync().get(key);
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    @Test
    void openSslRunsTlsWhereNettyTcnativeLoads() {
        assertEquals(SslProvider.OPENSSL, TlsContext.provider(), TlsContext::openSslUnavailability);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void redisCliTalksTlsWithAClientCertificateAndIsRefusedWithoutOne(Target target) {
        try (LacewingServer server = tlsServer(target, "yes")) {
            assertEquals(0, server.port(), "port 0 with tls-port turns plain TCP off");
            assertEquals("OK", redisCli(server.tlsPort(), true, "SET", "tls:cli", "hello").text());
            assertEquals("hello", redisCli(server.tlsPort(), true, "GET", "tls:cli").text());
            Output refused = redisCli(server.tlsPort(), false, "PING");
            assertTrue(!refused.text().equals("PONG"), refused.text());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void lettuceRedissNeedsAClientCertificateOnlyWhenTlsAuthClientsIsYes(Target target) {
        try (LacewingServer server = tlsServer(target, "yes")) {
            assertEquals("v1", lettuceCall(server.tlsPort(), "ca", true, "tls:lettuce", "v1"));
            assertThrows(Exception.class, () -> lettuceCall(server.tlsPort(), "ca", false, "tls:lettuce", "v2"));
        }
        try (LacewingServer server = tlsServer(target, "optional")) {
            assertEquals("v3", lettuceCall(server.tlsPort(), "ca", false, "tls:lettuce", "v3"));
            assertEquals("v4", lettuceCall(server.tlsPort(), "ca", true, "tls:lettuce", "v4"));
        }
        try (LacewingServer server = tlsServer(target, "no")) {
            assertEquals("v5", lettuceCall(server.tlsPort(), "ca", false, "tls:lettuce", "v5"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void jedisOverSslSeesWhatPlainTcpWroteOnTheSideBySidePort(Target target) throws Exception {
        int plainPort = freePort();
        try (LacewingServer server = Servers.builder(target)
                .port(plainPort)
                .set("tls-port", Integer.toString(freePort()))
                .set("tls-cert-file", file("server.crt"))
                .set("tls-key-file", file("server.key"))
                .set("tls-ca-cert-file", file("ca.crt"))
                .start();
             RespClient plain = RespClient.connect(plainPort)) {
            assertEquals(plainPort, server.port());
            assertEquals("+OK\r\n", plain.call("SET", "tls:jedis", "from-plain"));
            DefaultJedisClientConfig config = DefaultJedisClientConfig.builder().ssl(true)
                .sslSocketFactory(clientSslContext().getSocketFactory()).socketTimeoutMillis(10_000).build();
            try (Jedis jedis = new Jedis("127.0.0.1", server.tlsPort(), config)) {
                assertEquals("from-plain", jedis.get("tls:jedis"));
                jedis.set("tls:jedis", "from-tls");
            }
            assertEquals("$8\r\nfrom-tls\r\n", plain.call("GET", "tls:jedis"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void configSetOfTheCertificateServesNewConnectionsWithItAndABadOneIsRefused(Target target) {
        try (LacewingServer server = tlsServer(target, "no")) {
            int port = server.tlsPort();
            RedisClient client = lettuce(port, "ca", false);
            try (StatefulRedisConnection<String, String> open = client.connect()) {
                assertEquals("ERR CONFIG SET failed (possibly related to argument 'tls-cert-file') - Unable to update "
                    + "TLS configuration. Check server logs.",
                    assertThrows(Exception.class, () -> open.sync().configSet("tls-cert-file", file("nothing.crt")))
                        .getMessage());
                assertEquals(file("server.crt"), open.sync().configGet("tls-cert-file").get("tls-cert-file"));
                assertEquals("v1", lettuceCall(port, "ca", false, "tls:reload", "v1"), "the old certificate stays");

                assertEquals("OK", open.sync().configSet(java.util.Map.of("tls-cert-file", file("server2.crt"),
                    "tls-key-file", file("server2.key"))));
                assertEquals("v2", lettuceCall(port, "ca2", false, "tls:reload", "v2"));
                assertThrows(Exception.class, () -> lettuceCall(port, "ca", false, "tls:reload", "v3"));
                assertEquals("v2", open.sync().get("tls:reload"), "an open connection keeps its session");
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void configSetTlsPortOpensMovesAndClosesTheTlsListener(Target target) throws Exception {
        try (LacewingServer server = Servers.builder(target)
                .set("tls-cert-file", file("server.crt"))
                .set("tls-key-file", file("server.key"))
                .set("tls-auth-clients", "no")
                .start();
             RespClient plain = RespClient.connect(server.port())) {
            assertEquals(0, server.tlsPort());
            int first = freePort();
            assertEquals("+OK\r\n", plain.call("CONFIG", "SET", "tls-port", Integer.toString(first)));
            assertEquals(first, server.tlsPort());
            assertEquals("PONG", redisCli(first, false, "PING").text());

            int second = freePort();
            assertEquals("+OK\r\n", plain.call("CONFIG", "SET", "tls-port", Integer.toString(second)));
            assertEquals("PONG", redisCli(second, false, "PING").text());
            assertTrue(ListenPortTest.stopsAccepting(first), "the old TLS port closes");

            assertEquals("+OK\r\n", plain.call("CONFIG", "SET", "tls-port", "0"));
            assertTrue(ListenPortTest.stopsAccepting(second), "tls-port 0 closes TLS");
            assertEquals(0, server.tlsPort());
            assertEquals("+PONG\r\n", plain.call("PING"), "the plain port is untouched");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void configSetTlsPortWithoutACertificateIsRefusedAndListensOnNothing(Target target) {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient plain = RespClient.connect(server.port())) {
            int port = freePort();
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'tls-port') - Unable to update TLS "
                + "configuration. Check server logs.\r\n", plain.call("CONFIG", "SET", "tls-port", Integer.toString(port)));
            assertEquals("*2\r\n$8\r\ntls-port\r\n$1\r\n0\r\n", plain.call("CONFIG", "GET", "tls-port"));
            assertTrue(!ListenPortTest.accepts(port));
            assertEquals("+OK\r\n", plain.call("CONFIG", "SET", "tls-cert-file", file("nothing.crt")),
                "with tls-port 0 the tls-* settings are only values, as in Redis");
        }
    }

    @Test
    void tlsProtocolsAndCiphersLimitWhatAClientMayNegotiate() {
        Target target = new Target("shared-nothing", "nio");
        try (LacewingServer server = Servers.builder(target)
                .set("tls-port", Integer.toString(freePort()))
                .set("tls-cert-file", file("server.crt"))
                .set("tls-key-file", file("server.key"))
                .set("tls-auth-clients", "no")
                .set("tls-protocols", "TLSv1.2")
                .set("tls-ciphers", "ECDHE-ECDSA-AES128-GCM-SHA256")
                .set("tls-prefer-server-ciphers", "yes")
                .set("tls-session-caching", "no")
                .start()) {
            String address = "127.0.0.1:" + server.tlsPort();
            Output tls12 = run(List.of("openssl", "s_client", "-connect", address, "-CAfile", file("ca.crt"),
                "-tls1_2"), certificates.toFile());
            assertEquals(0, tls12.exitCode(), tls12.text());
            assertTrue(tls12.text().contains("Cipher is ECDHE-ECDSA-AES128-GCM-SHA256"), tls12.text());
            Output tls13 = run(List.of("openssl", "s_client", "-connect", address, "-CAfile", file("ca.crt"),
                "-tls1_3"), certificates.toFile());
            assertTrue(tls13.exitCode() != 0, "TLSv1.3 is not in tls-protocols: " + tls13.text());
            assertEquals("PONG", redisCli(server.tlsPort(), false, "PING").text());
        }
    }

    @Test
    void openSslCipherKeywordsChooseTheSuitesAndAListMatchingNoneIsRefused() {
        Target target = new Target("shared-nothing", "nio");
        try (LacewingServer server = Servers.builder(target)
                .set("tls-port", Integer.toString(freePort()))
                .set("tls-cert-file", file("server.crt"))
                .set("tls-key-file", file("server.key"))
                .set("tls-auth-clients", "no")
                .set("tls-protocols", "TLSv1.2")
                .set("tls-ciphers", "ECDHE+AESGCM:!AES256")
                .set("tls-prefer-server-ciphers", "yes")
                .start();
             RespClient plain = RespClient.connect(server.port() == 0 ? server.tlsPort() : server.port())) {
            assertEquals("ECDHE-ECDSA-AES128-GCM-SHA256", negotiated(server.tlsPort(), null));
            assertEquals("", negotiated(server.tlsPort(), "ECDHE-ECDSA-AES256-GCM-SHA384"), "!AES256 took it out");
            assertEquals("", negotiated(server.tlsPort(), "ECDHE-ECDSA-AES128-SHA"), "not AESGCM");

            RedisClient client = lettuce(server.tlsPort(), "ca", false);
            try (StatefulRedisConnection<String, String> open = client.connect()) {
                assertEquals("OK", open.sync().configSet("tls-ciphers", "HIGH:!aNULL"));
                assertEquals("ECDHE-ECDSA-AES256-GCM-SHA384", negotiated(server.tlsPort(), "ECDHE-ECDSA-AES256-GCM-SHA384"));
                assertEquals("OK", open.sync().configSet("tls-ciphers", "DEFAULT"));
                assertEquals("ECDHE-ECDSA-AES128-SHA", negotiated(server.tlsPort(), "ECDHE-ECDSA-AES128-SHA"));
                assertEquals("ERR CONFIG SET failed (possibly related to argument 'tls-ciphers') - Unable to update "
                    + "TLS configuration. Check server logs.",
                    assertThrows(Exception.class, () -> open.sync().configSet("tls-ciphers", "NO-SUCH-CIPHER"))
                        .getMessage());
                assertEquals("DEFAULT", open.sync().configGet("tls-ciphers").get("tls-ciphers"));
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    /** The TLS 1.2 cipher openssl s_client agrees on, offering only {@code cipher} when given; "" when none. */
    private static String negotiated(int port, String cipher) {
        List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-connect", "127.0.0.1:" + port,
            "-CAfile", file("ca.crt"), "-tls1_2"));
        if (cipher != null) {
            command.addAll(List.of("-cipher", cipher));
        }
        Output output = run(command, certificates.toFile());
        java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("Cipher is (\\S+)").matcher(output.text());
        return output.exitCode() == 0 && matcher.find() && !matcher.group(1).equals("(NONE)") ? matcher.group(1) : "";
    }

    @Test
    void anUnknownProtocolIsRefusedAtStart() {
        Target target = new Target("shared-nothing", "nio");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> Servers.builder(target)
                .set("tls-port", Integer.toString(freePort()))
                .set("tls-cert-file", file("server.crt"))
                .set("tls-key-file", file("server.key"))
                .set("tls-auth-clients", "no")
                .set("tls-protocols", "SSLv3")
                .start());
        assertTrue(refused.getMessage().contains("Invalid tls-protocols specified"), refused.getMessage());
    }

    @Test
    void aTlsPortWithoutACertificateDoesNotStart() {
        Target target = new Target("shared-nothing", "nio");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> Servers.builder(target).set("tls-port", Integer.toString(freePort())).start());
        assertTrue(refused.getMessage().startsWith(TlsContext.START_FAILED), refused.getMessage());
    }

    /** Trusts "ca" and presents the client certificate: a JDK SSLContext from the PEM files. */
    private static SSLContext clientSslContext() throws Exception {
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        Certificate ca = factory.generateCertificate(new ByteArrayInputStream(Files.readAllBytes(Path.of(file("ca.crt")))));
        Certificate client = factory.generateCertificate(
            new ByteArrayInputStream(Files.readAllBytes(Path.of(file("client.crt")))));
        String pem = Files.readString(Path.of(file("client.key")));
        byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
        PrivateKey key = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));

        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", ca);
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("client", key, "changeit".toCharArray(), new Certificate[] {client, ca});
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, "changeit".toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
        return context;
    }
}
