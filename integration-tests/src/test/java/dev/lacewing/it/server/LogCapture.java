package dev.lacewing.it.server;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** The records an in-process server logs under one java.util.logging logger while attached; from any thread. */
public final class LogCapture extends Handler implements AutoCloseable {

    private final Logger logger;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    private LogCapture(Logger logger) {
        this.logger = logger;
        setLevel(Level.ALL);
        logger.addHandler(this);
    }

    /** Starts capturing what {@code loggerName} and the loggers below it publish. */
    public static LogCapture attach(String loggerName) {
        return new LogCapture(Logger.getLogger(loggerName));
    }

    public List<LogRecord> records() {
        return records;
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
