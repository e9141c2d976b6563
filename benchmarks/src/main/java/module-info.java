/**
 * Lacewing's benchmarks: JMH benchmarks of the hot path (RESP decoding, the keyspace), run from
 * the build tree, and the memtier-style load tool {@code dev.lacewing.benchmarks.load}, shipped
 * as {@code bin/lacewing-benchmark}. The distribution does not ship JMH, hence {@code static}.
 */
open module dev.lacewing.benchmarks {
    requires dev.lacewing.core;
    requires io.netty.buffer;
    requires io.netty.common;
    requires io.netty.transport;
    requires io.netty.transport.classes.epoll;
    requires HdrHistogram;
    requires java.management;
    requires static jmh.core;

    exports dev.lacewing.benchmarks.load;
}
