package dev.lacewing.launcher;

import dev.lacewing.core.server.ClientText;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Log lines as redis-server writes them, {@code pid:M 03 Dec 2026 08:01:02.345 * message}, where
 * the mark is {@code .} debug (System.Logger TRACE), {@code -} verbose (DEBUG), {@code *} notice
 * (INFO) and {@code #} warning. The server's loggers (System.Logger, backed by java.util.logging)
 * write to standard output. A record is always one line: a control character in a message that
 * did not come through {@link ClientText} (an exception's message) is escaped here.
 *
 * <p>Thread rule: any thread may log; each line is written and flushed under the stream's lock.
 */
final class RedisStyleLog extends Formatter {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("dd MMM yyyy HH:mm:ss.SSS", Locale.ROOT);
    private static final long PID = ProcessHandle.current().pid();

    private RedisStyleLog() {
    }

    /** Replaces the JDK's default console handler (two lines per record, on stderr). */
    static void install() {
        LogManager.getLogManager().reset();
        Logger root = Logger.getLogger("");
        root.setLevel(Level.INFO);
        root.addHandler(new LineHandler(System.out));
    }

    /**
     * The {@code logfile} setting: log lines from now on are appended to {@code file} instead of
     * standard output, as Redis opens its logfile in append mode.
     */
    static void appendTo(Path file) throws IOException {
        PrintStream out = new PrintStream(new FileOutputStream(file.toFile(), true), false, StandardCharsets.UTF_8);
        Logger root = Logger.getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        root.addHandler(new LineHandler(out));
    }

    /** One line for a fatal start-up error, on standard error. */
    static void fatal(String message) {
        System.err.println(line('#', message));
        System.err.flush();
    }

    static String line(char mark, String message) {
        return PID + ":M " + TIME.format(LocalDateTime.now()) + " " + mark + " " + message;
    }

    @Override
    public String format(LogRecord record) {
        int level = record.getLevel().intValue();
        char mark = level >= Level.WARNING.intValue() ? '#'
            : level >= Level.INFO.intValue() ? '*'
            : level >= Level.FINE.intValue() ? '-' : '.';
        String message = formatMessage(record);
        if (record.getThrown() != null) {
            message += " (" + record.getThrown() + ")";
        }
        return line(mark, ClientText.oneLine(message));
    }

    private static final class LineHandler extends Handler {

        private final PrintStream out;

        LineHandler(PrintStream out) {
            this.out = out;
            setFormatter(new RedisStyleLog());
            setLevel(Level.ALL);
        }

        @Override
        public void publish(LogRecord record) {
            if (isLoggable(record)) {
                String line = getFormatter().format(record);
                synchronized (out) {
                    out.println(line);
                    out.flush();
                }
            }
        }

        @Override
        public void flush() {
            out.flush();
        }

        @Override
        public void close() {
            out.flush();
        }
    }
}
