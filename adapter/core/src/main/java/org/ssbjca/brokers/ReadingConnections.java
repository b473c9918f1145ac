package org.ssbjca.brokers;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.ssbjca.backend.ConnectionSource;

/**
 * The connections the monitoring readings of one database run on (an activation's queue depth and counts, a table
 * activation's counts, the endpoints and the transmission queue): at most {@value #MAX_OPEN} open at once, kept open
 * between readings, so that a scrape opens no session once the first reading opened one. Never a reader's or an
 * application's connection. Each reading runs in a transaction of its own, rolled back when it returns (readings only
 * read). Thread-safe: a caller past the bound waits up to {@value #WAIT_SECONDS} s for a connection.
 */
public final class ReadingConnections {

    /** Connections open at most. */
    static final int MAX_OPEN = 2;
    /** How long a reading waits for a connection when {@value #MAX_OPEN} are in use. */
    static final long WAIT_SECONDS = 10;

    /** One reading on a connection. */
    @FunctionalInterface
    public interface Reading<T> {
        /**
         * Returns what was read.
         *
         * @param c the connection, auto-commit off
         * @throws SQLException on a database error
         */
        T read(Connection c) throws SQLException;
    }

    private final ConnectionSource source;
    private final Semaphore permits = new Semaphore(MAX_OPEN, true);
    private final Deque<Connection> idle = new ArrayDeque<>();
    private boolean closed;

    ReadingConnections(ConnectionSource source) {
        this.source = source;
    }

    /**
     * Runs a reading on a kept connection, or a new one. A kept connection that turns out broken (the database
     * restarted, the server ended an idle session) is closed and the reading runs once more on a new connection; a
     * connection the reading failed on but that still answers is kept.
     *
     * @param reading what to read; it must only read
     * @param <T> its result
     * @return the result
     * @throws SQLException if the database refuses, or no connection was free in time
     */
    public <T> T read(Reading<T> reading) throws SQLException {
        try {
            if (!permits.tryAcquire(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new SQLException("no connection for monitoring readings of " + source.config() + " was free in "
                        + WAIT_SECONDS + " s (" + MAX_OPEN + " in use)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting for a connection for monitoring readings", e);
        }
        try {
            Connection kept = take();
            if (kept != null) {
                try {
                    return readOn(kept, reading);
                } catch (SQLException e) {
                    if (!kept.isClosed()) {
                        throw e;
                    }
                }
            }
            return readOn(source.open(), reading);
        } finally {
            permits.release();
        }
    }

    private <T> T readOn(Connection c, Reading<T> reading) throws SQLException {
        T result;
        try {
            result = reading.read(c);
            c.rollback();
        } catch (SQLException | RuntimeException e) {
            if (!answers(c) || !give(c)) {
                closeQuietly(c);
            }
            throw e;
        }
        if (!give(c)) {
            closeQuietly(c);
        }
        return result;
    }

    /** @return whether the connection still answers once its transaction is rolled back */
    private static boolean answers(Connection c) {
        try {
            c.rollback();
            return c.isValid((int) WAIT_SECONDS);
        } catch (SQLException e) {
            return false;
        }
    }

    private synchronized Connection take() {
        return idle.pollFirst();
    }

    /** @return whether the connection is kept; false once closed */
    private synchronized boolean give(Connection c) {
        if (closed) {
            return false;
        }
        idle.addFirst(c);
        return true;
    }

    /** Closes the kept connections; one in use now is closed when its reading returns. */
    void close() {
        Deque<Connection> toClose;
        synchronized (this) {
            closed = true;
            toClose = new ArrayDeque<>(idle);
            idle.clear();
        }
        toClose.forEach(ReadingConnections::closeQuietly);
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException | RuntimeException e) {
            // the connection is given up either way
        }
    }
}
