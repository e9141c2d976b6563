/**
 * Lacewing's core: the RESP protocol, the command table and command families, the keyspace,
 * configuration, and the server that wires the chosen engine, transport and threading plugins.
 */
module dev.lacewing.core {
    requires transitive dev.lacewing.api;
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

    exports dev.lacewing.core.command;
    exports dev.lacewing.core.command.bitmap;
    exports dev.lacewing.core.command.generic;
    exports dev.lacewing.core.command.geo;
    exports dev.lacewing.core.command.hash;
    exports dev.lacewing.core.command.set;
    exports dev.lacewing.core.command.hyperloglog;
    exports dev.lacewing.core.command.list;
    exports dev.lacewing.core.command.pubsub;
    exports dev.lacewing.core.command.string;
    exports dev.lacewing.core.command.zset;
    exports dev.lacewing.core.command.transaction;
    exports dev.lacewing.core.command.scripting;
    exports dev.lacewing.core.command.server;
    exports dev.lacewing.core.config;
    exports dev.lacewing.core.datatype;
    exports dev.lacewing.core.diagnostics;
    exports dev.lacewing.core.keyspace;
    exports dev.lacewing.core.pubsub;
    exports dev.lacewing.core.resp;
    exports dev.lacewing.core.server;
    exports dev.lacewing.core.threading;
    exports dev.lacewing.core.transport;

    uses dev.lacewing.api.StorageEngineProvider;
    uses dev.lacewing.api.TransportProvider;
    uses dev.lacewing.api.ThreadingStrategy;
    uses dev.lacewing.api.CommandProvider;
    uses dev.lacewing.api.ScriptingProvider;

    provides dev.lacewing.api.TransportProvider with dev.lacewing.core.transport.NioTransport;
    provides dev.lacewing.api.ThreadingStrategy with
        dev.lacewing.core.threading.PerCoreStrategy,
        dev.lacewing.core.threading.SingleStrategy,
        dev.lacewing.core.threading.IoPoolStrategy;
}
