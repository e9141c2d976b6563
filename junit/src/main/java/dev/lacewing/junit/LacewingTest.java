package dev.lacewing.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against an in-process Lacewing server on an ephemeral loopback
 * port: a {@link LacewingServerInfo} (or the {@code LacewingServer} itself) parameter of a test
 * method, a lifecycle method or the constructor receives it.
 * <pre>{@code
 * @LacewingTest(engine = LacewingTest.Engine.MULTITHREAD, settings = "maxmemory 64mb")
 * class CacheTest {
 *     @Test
 *     void storesAValue(LacewingServerInfo server) {
 *         RedisClient client = RedisClient.create(server.uri());
 *         ...
 *     }
 * }
 * }</pre>
 * A class that only says {@code @ExtendWith(LacewingExtension.class)} gets the defaults below.
 * To run a test on every engine and transport, see {@link LacewingMatrix}.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(LacewingExtension.class)
public @interface LacewingTest {

    /** Which storage engine the server runs. */
    Engine engine() default Engine.SHARED_NOTHING;

    /** One server for the whole class (the default), or a fresh one for each test. */
    Lifecycle lifecycle() default Lifecycle.PER_CLASS;

    /**
     * Settings as redis.conf lines, {@code "name value"} (or {@code "name=value"}; {@code "save \"\""}
     * or a name alone for an empty value), applied after
     * the extension's own ({@code port 0}, {@code bind 127.0.0.1}, {@code save ""} and {@code dir} a
     * fresh temporary directory, so that no dump.rdb is read or written where the tests run).
     */
    String[] settings() default {};

    /** The engines, by the name the {@code engine} setting takes. */
    enum Engine {
        /** A keyspace partition per worker thread (the server's default). */
        SHARED_NOTHING("shared-nothing"),
        /** One keyspace shared by every worker, locked by hash slot. */
        MULTITHREAD("multithread");

        private final String settingValue;

        Engine(String settingValue) {
            this.settingValue = settingValue;
        }

        /** The value of the {@code engine} setting. */
        public String settingValue() {
            return settingValue;
        }
    }

    /**
     * The network transports, by the name the {@code transport} setting takes. epoll and io_uring
     * need their plugin jar (lacewing-transport-epoll, lacewing-transport-iouring) on the test class
     * path and a kernel that supports them; {@link LacewingMatrix} skips, with the reason, those
     * that cannot load.
     */
    enum Transport {
        /** Java NIO, built into the core: runs everywhere. */
        NIO("nio"),
        /** Linux epoll, through Netty's native transport. */
        EPOLL("epoll"),
        /** Linux io_uring, through Netty's native transport. */
        IO_URING("io_uring");

        private final String settingValue;

        Transport(String settingValue) {
            this.settingValue = settingValue;
        }

        /** The value of the {@code transport} setting. */
        public String settingValue() {
            return settingValue;
        }
    }

    /** How long one server lives. */
    enum Lifecycle {
        /** Started before the class's first test, closed after its last. */
        PER_CLASS,
        /** Started for each test and closed after it: every test sees an empty keyspace. */
        PER_TEST
    }
}
