/**
 * Lacewing's core: the RESP protocol, the command table and command families, the keyspace,
 * configuration, and the server that wires the chosen engine, transport and threading plugins.
 */
module dev.lacewing.core {
    requires transitive dev.lacewing.api;
    requires transitive dev.lacewing.transport.spi;
    requires io.netty.common;
    requires io.netty.buffer;
    requires io.netty.transport;
    requires io.netty.handler;
    requires static io.netty.tcnative.classes.openssl;
    requires HdrHistogram;
    requires io.netty.codec.http;
    requires io.prometheus.writer.text;
    requires io.prometheus.metrics.model;
    requires io.prometheus.metrics.config;
    requires java.management;
    requires java.logging;

    // What the project's other modules use, and no more: the embedding API and the settings
    // table (the launcher, embedders) and the keyspace the engines are built over. Those exports
    // cannot be qualified: plugins are loaded in a child module layer (JPMS mode), where a parent's
    // qualified export does not reach, or as bundles in unnamed modules (OSGi mode). Command,
    // storage and scripting plugins need only dev.lacewing.api; transports need
    // dev.lacewing.transport.spi, not core, so the NIO transport and TlsContext stay inside (the
    // TLS tests reach TlsContext on the class path). The benchmarks, on the boot layer with core,
    // measure internals.
    exports dev.lacewing.core.config;
    exports dev.lacewing.core.server;
    exports dev.lacewing.core.keyspace;
    exports dev.lacewing.core.command to dev.lacewing.benchmarks;
    exports dev.lacewing.core.datatype to dev.lacewing.benchmarks;
    exports dev.lacewing.core.diagnostics to dev.lacewing.benchmarks;
    exports dev.lacewing.core.resp to dev.lacewing.benchmarks;

    uses dev.lacewing.api.StorageEngineProvider;
    uses dev.lacewing.api.storage.StorageProvider;
    uses dev.lacewing.api.TransportProvider;
    uses dev.lacewing.api.ThreadingStrategy;
    uses dev.lacewing.api.CommandProvider;
    uses dev.lacewing.api.ScriptingProvider;

    provides dev.lacewing.api.TransportProvider with dev.lacewing.core.transport.NioTransport;
    provides dev.lacewing.api.ThreadingStrategy with
        dev.lacewing.core.threading.PerCoreStrategy,
        dev.lacewing.core.threading.SingleStrategy;
}
