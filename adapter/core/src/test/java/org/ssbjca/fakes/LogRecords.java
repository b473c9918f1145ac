package org.ssbjca.fakes;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * Captures what one class logs. JBoss Logging writes to java.util.logging in the tests (no other backend is on the
 * class path); records are kept with their message formatted.
 */
public final class LogRecords extends Handler implements AutoCloseable {

    private final Logger logger;
    private final Level previous;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    private LogRecords(String source) {
        logger = Logger.getLogger(source);
        previous = logger.getLevel();
        logger.setLevel(Level.ALL);
        setLevel(Level.ALL);
        logger.addHandler(this);
    }

    /**
     * @param source the class whose logger to capture, debug included
     * @return the capture; close it to stop
     */
    public static LogRecords of(Class<?> source) {
        return new LogRecords(source.getName());
    }

    /**
     * @param logger the name of the logger to capture (a class another package cannot name), debug included
     * @return the capture; close it to stop
     */
    public static LogRecords named(String logger) {
        return new LogRecords(logger);
    }

    /**
     * @param level a level (JBoss Logging's WARN is WARNING, DEBUG is FINE)
     * @param id a message id, such as {@code SSBJCA0025}
     * @return the formatted messages logged at that level with that id
     */
    public List<String> messages(Level level, String id) {
        return records.stream().filter(r -> r.getLevel().equals(level)).map(this::format)
                .filter(m -> m.contains(id)).collect(Collectors.toList());
    }

    /**
     * @param level a level (JBoss Logging's WARN is WARNING)
     * @param id a message id
     * @return how many records of that level and id carry an exception (logged with its stack trace)
     */
    public long withStackTrace(Level level, String id) {
        return records.stream().filter(r -> r.getLevel().equals(level) && r.getThrown() != null
                && format(r).contains(id)).count();
    }

    private String format(LogRecord r) {
        return getFormatter() == null ? new java.util.logging.SimpleFormatter().formatMessage(r)
                : getFormatter().formatMessage(r);
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
        logger.setLevel(previous);
    }
}
