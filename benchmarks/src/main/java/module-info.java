/** JMH benchmarks of Lacewing's hot path: RESP decoding and the keyspace. */
open module dev.lacewing.benchmarks {
    requires dev.lacewing.core;
    requires io.netty.buffer;
    requires java.management;
    requires jmh.core;
}
