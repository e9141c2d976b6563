package dev.lacewing.it.reference;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One reference redis-server for a test class: started before its first test, stopped after its
 * last, and skipped with the class when redis-server is not installed ({@link ReferenceRedis#start}).
 * A test class holds it as {@code @RegisterExtension static final ReferenceRedisExtension redis}.
 */
public final class ReferenceRedisExtension implements BeforeAllCallback, AfterAllCallback {

    private ReferenceRedis redis;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        redis = ReferenceRedis.start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (redis != null) {
            redis.close();
            redis = null;
        }
    }

    /** The running server's port. */
    public int port() {
        if (redis == null) {
            throw new IllegalStateException("the reference redis-server runs only while its test class does");
        }
        return redis.port();
    }
}
