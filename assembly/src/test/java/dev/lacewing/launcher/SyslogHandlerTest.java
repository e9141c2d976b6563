package dev.lacewing.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollDomainDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.unix.DomainDatagramPacket;
import io.netty.channel.unix.DomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * syslog-enabled's handler against a syslog stand-in: a Unix datagram socket (Netty epoll) at a
 * temporary path, which receives each line as syslog(3) would send it to /dev/log.
 */
class SyslogHandlerTest {

    private static final long PID = ProcessHandle.current().pid();

    @TempDir
    Path directory;

    @Test
    void eachRecordIsOneRfc3164DatagramWithTheFacilityAndRedisLevelMap() throws Exception {
        Path socket = directory.resolve("log");
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        try {
            Channel receiver = new Bootstrap().group(group).channel(EpollDomainDatagramChannel.class)
                .handler(new SimpleChannelInboundHandler<DomainDatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DomainDatagramPacket packet) {
                        received.add(packet.content().toString(StandardCharsets.UTF_8));
                    }
                })
                .bind(new DomainSocketAddress(socket.toString())).syncUninterruptibly().channel();
            SyslogHandler handler = SyslogHandler.open(socket.toString(), "local0", "lacewing-test");
            try {
                handler.publish(new LogRecord(Level.INFO, "Ready to accept connections"));
                handler.publish(new LogRecord(Level.WARNING, "two\nlines"));
                handler.publish(new LogRecord(Level.FINE, "verbose"));
                handler.publish(new LogRecord(Level.FINEST, "debug"));
                assertLine("<133>", "Ready to accept connections", received.poll(10, TimeUnit.SECONDS));
                assertLine("<132>", "two\\nlines", received.poll(10, TimeUnit.SECONDS));
                assertLine("<134>", "verbose", received.poll(10, TimeUnit.SECONDS));
                assertLine("<135>", "debug", received.poll(10, TimeUnit.SECONDS));
            } finally {
                handler.close();
                receiver.close().syncUninterruptibly();
            }
            SyslogHandler user = SyslogHandler.open(socket.toString(), "user", "redis");
            assertEquals("<13>Dec  5 09:04:05 redis[" + PID + "]: x",
                user.datagram(new LogRecord(Level.INFO, "x"), java.time.LocalDateTime.of(2026, 12, 5, 9, 4, 5)));
            user.close();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private static void assertLine(String priority, String message, String line) {
        assertNotNull(line, "no datagram for " + message);
        assertTrue(line.matches("\\Q" + priority + "\\E[A-Z][a-z]{2} [ 1-3][0-9] \\d{2}:\\d{2}:\\d{2} lacewing-test\\["
            + PID + "\\]: \\Q" + message + "\\E"), line);
    }
}
