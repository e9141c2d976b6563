/**
 * The launcher of the distribution: reads the configuration, loads plugins/ as a JPMS module
 * layer or as bundles in an embedded Apache Felix, and runs the server until SHUTDOWN or a signal.
 */
module dev.lacewing.launcher {
    requires dev.lacewing.api;
    requires dev.lacewing.core;
    requires org.apache.felix.framework;
    requires io.netty.common;
    requires io.netty.buffer;
    requires io.netty.transport;
    requires static io.netty.transport.classes.epoll;
    requires static io.netty.transport.unix.common;
    requires java.logging;
    requires java.management;
    requires jdk.management;
    requires jdk.unsupported;

    uses org.osgi.framework.launch.FrameworkFactory;
}
