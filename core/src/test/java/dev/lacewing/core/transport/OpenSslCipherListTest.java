package dev.lacewing.core.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class OpenSslCipherListTest {

    @Test
    void theJdkEngineTakesSuiteNamesInEitherSpelling() {
        assertEquals(List.of("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"),
            OpenSslCipherList.expand(" ECDHE-ECDSA-AES128-GCM-SHA256 : TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 ", false));
        assertEquals(List.of(), OpenSslCipherList.expand("", false));
    }

    @Test
    void theJdkEngineRefusesOpenSslKeywordsSayingWhy() {
        for (String spec : List.of("HIGH:!aNULL", "DEFAULT", "ECDHE+AESGCM", "ECDHE-ECDSA-AES128-GCM-SHA256:!MD5")) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> OpenSslCipherList.expand(spec, false), spec);
            assertTrue(refused.getMessage().startsWith("tls-ciphers '" + spec + "': '"), refused.getMessage());
            assertTrue(refused.getMessage().contains("only the OpenSSL TLS engine understands"), refused.getMessage());
        }
    }
}
