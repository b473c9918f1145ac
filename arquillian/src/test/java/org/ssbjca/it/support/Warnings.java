package org.ssbjca.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Collects the warnings (and worse) logged under a logger name while it is open, in the server (tests that run in the
 * container); checks when it opens that it sees them.
 */
public final class Warnings extends Handler implements AutoCloseable {
    private final Logger logger;
    private final List<String> seen = new CopyOnWriteArrayList<>();

    private Warnings(Logger logger) {
        this.logger = logger;
    }

    /**
     * @param name a logger name, e.g. {@code org.ssbjca}
     * @return a collector of what is logged under it from now on
     */
    public static Warnings of(String name) {
        Warnings w = new Warnings(Logger.getLogger(name));
        w.logger.addHandler(w);
        Logger.getLogger(name + ".it.probe").warning("probe");
        assertEquals(List.of("probe"), w.seen, "warnings under " + name + " are collected");
        w.seen.clear();
        return w;
    }

    /** @return the messages of the warnings seen so far */
    public List<String> seen() {
        return List.copyOf(seen);
    }

    @Override
    public void publish(LogRecord r) {
        if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
            seen.add(r.getMessage());
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
