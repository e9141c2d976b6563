package dev.lacewing.launcher;

import dev.lacewing.core.server.ClientText;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.unix.DomainDatagramPacket;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;

/**
 * {@code syslog-enabled}: every log line also goes to the local syslog daemon, as Redis's
 * serverLogRaw calls syslog(3): an RFC 3164 datagram {@code <PRI>Mmm dd hh:mm:ss ident[pid]: message}
 * on the Unix datagram socket /dev/log (the system property {@code lacewing.syslog.path} names
 * another), with {@code syslog-facility} and Redis's level map (debug: debug, verbose: info,
 * notice: notice, warning: warning). The JDK cannot send Unix datagrams, so this needs Netty's
 * epoll transport (EpollDomainDatagramChannel); where it is not available, {@link #open} says why
 * and the server logs as before.
 *
 * <p>Thread rule: any thread may log; a datagram is written through the channel's own event loop
 * (one thread, daemon), which keeps lines in order. A line syslog does not take (no daemon
 * listening) is dropped, as syslog(3) drops it.
 */
final class SyslogHandler extends Handler {

    /** The system property naming the socket, for tests; /dev/log by default. */
    static final String PATH_PROPERTY = "lacewing.syslog.path";

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("MMM ppd HH:mm:ss", Locale.ROOT);
    private static final List<String> FACILITIES = List.of("kern", "user", "mail", "daemon", "auth", "syslog", "lpr",
        "news", "uucp", "cron", "authpriv", "ftp", "", "", "", "", "local0", "local1", "local2", "local3", "local4",
        "local5", "local6", "local7");
    private static final long PID = ProcessHandle.current().pid();
    private static final Formatter MESSAGES = new SimpleFormatter();

    private final EventLoopGroup group;
    private final Channel channel;
    private final DomainSocketAddress target;
    private final int facility;
    private final String ident;

    private SyslogHandler(EventLoopGroup group, Channel channel, DomainSocketAddress target, int facility, String ident) {
        this.group = group;
        this.channel = channel;
        this.target = target;
        this.facility = facility;
        this.ident = ident;
        setLevel(Level.ALL);
    }

    /**
     * A handler sending to {@code path} with {@code facility} (syslog-facility's name) and
     * {@code ident}; IllegalStateException, with the reason, where Netty's epoll transport cannot run.
     */
    static SyslogHandler open(String path, String facility, String ident) {
        String unavailable = unavailability();
        if (unavailable != null) {
            throw new IllegalStateException(unavailable);
        }
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("lacewing-syslog", true),
            EpollIoHandler.newFactory());
        try {
            Channel channel = new Bootstrap().group(group).channel(EpollDomainDatagramChannel.class)
                .option(ChannelOption.DATAGRAM_CHANNEL_ACTIVE_ON_REGISTRATION, true)
                .handler(new ChannelHandlerAdapter() { })
                .register().syncUninterruptibly().channel();
            return new SyslogHandler(group, channel, new DomainSocketAddress(path), FACILITIES.indexOf(facility), ident);
        } catch (RuntimeException e) {
            group.shutdownGracefully();
            throw new IllegalStateException("cannot open a Unix datagram socket: " + e.getMessage(), e);
        }
    }

    /** Why syslog cannot be sent here; null when it can. */
    private static String unavailability() {
        try {
            return Epoll.isAvailable() ? null : "Netty's epoll transport is not available (" + Epoll.unavailabilityCause()
                + ")";
        } catch (LinkageError e) {
            return "Netty's epoll transport is not on the module path (" + e + ")";
        }
    }

    /** The datagram of one record: {@code <133>Dec  5 10:30:00 redis[1234]: message}. */
    String datagram(LogRecord record, LocalDateTime time) {
        int level = record.getLevel().intValue();
        int severity = level >= Level.WARNING.intValue() ? 4
            : level >= Level.INFO.intValue() ? 5
            : level >= Level.FINE.intValue() ? 6 : 7;
        String message = MESSAGES.formatMessage(record);
        if (record.getThrown() != null) {
            message += " (" + record.getThrown() + ")";
        }
        return "<" + (facility * 8 + severity) + ">" + TIME.format(time) + " " + ident + "[" + PID + "]: "
            + ClientText.oneLine(message);
    }

    @Override
    public void publish(LogRecord record) {
        if (!isLoggable(record) || !channel.isOpen()) {
            return;
        }
        byte[] line = datagram(record, LocalDateTime.now()).getBytes(StandardCharsets.UTF_8);
        channel.writeAndFlush(new DomainDatagramPacket(Unpooled.wrappedBuffer(line), target));
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully();
    }
}
