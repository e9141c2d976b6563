package dev.lacewing.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Map;
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

    /** Which storage keeps the server's keys. */
    Storage storage() default Storage.COMPACT;

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

    /**
     * The storages, by the name the {@code storage} setting takes, each with the settings the
     * extension gives it before the test's own. A storage whose plugin jar is not on the test class
     * path is skipped by {@link LacewingMatrix} with the reason.
     */
    enum Storage {
        /** The compact in-memory storage (lacewing-storage-compact): the server's default. */
        COMPACT("compact", Map.of()),
        /**
         * The tiered storage (lacewing-storage-tiered), with every string of one byte or more
         * written to its file when stored ({@code tiered-offload eager}, {@code tiered-min-value-size 1}),
         * so that what a test reads back of a string comes from disk.
         */
        TIERED("tiered", Map.of("tiered-offload", "eager", "tiered-min-value-size", "1"));

        private final String settingValue;
        private final Map<String, String> settings;

        Storage(String settingValue, Map<String, String> settings) {
            this.settingValue = settingValue;
            this.settings = settings;
        }

        /** The value of the {@code storage} setting. */
        public String settingValue() {
            return settingValue;
        }

        /** The settings, by name, a server of this storage gets before the test's own. */
        public Map<String, String> settings() {
            return settings;
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
