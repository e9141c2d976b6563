package dev.lacewing.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test method once per target of an all-pairs covering of engines x transports x
 * storages ({@link LacewingTarget#allPairs}: with the default one storage, every engine x transport),
 * each invocation named after its target ({@code shared-nothing/epoll/compact}) and given its server: a {@link LacewingServerInfo}, the
 * {@code LacewingServer} or the {@link LacewingTarget} parameter receives it. The servers are
 * shared by the class: one per target and settings, started by the first invocation that needs it
 * and closed after the class's last test. A transport this machine cannot load (no plugin jar on
 * the class path, an old kernel), or a storage without its plugin jar, is reported as a skipped
 * invocation with the reason.
 * <pre>{@code
 * class CacheTest {
 *     @LacewingMatrix(settings = "threads 2")
 *     void storesAValue(LacewingServerInfo server, LacewingTarget target) {
 *         RedisClient client = RedisClient.create(server.uri());
 *         ...
 *     }
 * }
 * }</pre>
 * The servers are the extension's own, not those of a {@link LacewingTest} on the class.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@TestTemplate
@ExtendWith(LacewingMatrixExtension.class)
public @interface LacewingMatrix {

    /** The engines, in the order the invocations run. */
    LacewingTest.Engine[] engines() default {LacewingTest.Engine.SHARED_NOTHING, LacewingTest.Engine.MULTITHREAD};

    /** The transports, in the order the invocations run for each engine. */
    LacewingTest.Transport[] transports() default {
        LacewingTest.Transport.NIO, LacewingTest.Transport.EPOLL, LacewingTest.Transport.IO_URING};

    /**
     * The storages: adding {@code TIERED} runs each engine, transport and storage pair once (six
     * targets for the defaults), not every combination.
     */
    LacewingTest.Storage[] storages() default {LacewingTest.Storage.COMPACT};

    /** Settings as redis.conf lines, as {@link LacewingTest#settings()} takes them, for every target. */
    String[] settings() default {};
}
