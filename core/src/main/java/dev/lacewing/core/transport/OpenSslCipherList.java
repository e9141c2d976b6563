package dev.lacewing.core.transport;

import io.netty.handler.ssl.CipherSuiteConverter;
import io.netty.handler.ssl.OpenSsl;
import io.netty.internal.tcnative.SSL;
import io.netty.internal.tcnative.SSLContext;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * tls-ciphers in OpenSSL's cipher-list syntax ({@code HIGH:!aNULL}, {@code DEFAULT},
 * {@code ECDHE+AESGCM}), as Redis hands it to SSL_CTX_set_cipher_list. Netty takes only cipher
 * names, so the list is expanded here into the names it stands for, in OpenSSL's order.
 *
 * <p>With the OpenSSL engine, BoringSSL itself expands it (a throwaway SSL_CTX given the list,
 * asked for its ciphers), so keywords mean exactly what they mean to that library; IANA names
 * (TLS_ECDHE_...) are turned into OpenSSL's first. The JDK's engine has no such parser: there
 * the list must name suites, and a keyword is refused with the reason.
 *
 * <p>Thread rule: stateless; any thread.
 */
final class OpenSslCipherList {

    private OpenSslCipherList() {
    }

    /**
     * The TLS 1.2 cipher suites {@code spec} stands for, under their IANA (Java) names, which is what
     * Netty's cipher filter keeps for either engine (an OpenSSL name given to it is dropped as
     * unsupported); IllegalArgumentException says why it stands for none.
     */
    static List<String> expand(String spec, boolean openSsl) {
        List<String> entries = Arrays.stream(spec.split(":")).map(String::strip).filter(entry -> !entry.isEmpty())
            .toList();
        if (entries.isEmpty()) {
            return List.of();
        }
        List<String> names = openSsl ? expandWithOpenSsl(entries) : namesForJdk(entries, spec);
        return names.stream().map(name -> {
            String java = CipherSuiteConverter.toJava(name, "TLS");
            return java == null ? name : java;
        }).toList();
    }

    private static List<String> expandWithOpenSsl(List<String> entries) {
        String list = entries.stream().map(entry -> {
            String converted = CipherSuiteConverter.toOpenSsl(entry, true);
            return converted == null ? entry : converted;
        }).collect(Collectors.joining(":"));
        OpenSsl.ensureAvailability();
        long context;
        try {
            context = SSLContext.make(SSL.SSL_PROTOCOL_TLSV1_2, SSL.SSL_MODE_SERVER);
        } catch (Exception e) {
            throw new IllegalArgumentException("Failed to expand tls-ciphers: " + e.getMessage(), e);
        }
        try {
            SSLContext.setCipherSuite(context, list, false);
            long ssl = SSL.newSSL(context, true);
            try {
                return List.of(SSL.getCiphers(ssl));
            } finally {
                SSL.freeSSL(ssl);
            }
        } catch (Exception e) { // tcnative reports OpenSSL's error as a checked Exception
            throw new IllegalArgumentException("Failed to configure ciphers: " + e.getMessage(), e);
        } finally {
            SSLContext.free(context);
        }
    }

    /** The entries as they are when each names a suite (IANA/JSSE or OpenSSL name); else the refusal. */
    static List<String> namesForJdk(List<String> entries, String spec) {
        for (String entry : entries) {
            boolean name = entry.startsWith("TLS_") || entry.startsWith("SSL_")
                || CipherSuiteConverter.toJava(entry, "TLS") != null;
            if (!name) {
                throw new IllegalArgumentException("tls-ciphers '" + spec + "': '" + entry + "' is an OpenSSL cipher "
                    + "keyword or rule, which only the OpenSSL TLS engine understands, and it is not loaded here ("
                    + TlsContext.openSslUnavailability() + "); name the cipher suites instead, e.g. "
                    + "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256");
            }
        }
        return entries;
    }
}
