package org.ssbjca.backend.sqlserver;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The statement of a reader's connection that another thread may cancel (a WAITFOR that a wake or a stop ends), and
 * how far it had come when the cancellation reached it.
 *
 * <p>A RECEIVE batch ({@link TSql#receive}) answers nothing before its RECEIVE has run: its only result is the
 * SELECT of what the RECEIVE put into a table variable. A cancellation that the driver reports before that result
 * began ended the WAITFOR while it waited, or the RECEIVE statement itself, which SQL Server then undoes: nothing was
 * taken. One reported once the result had begun came after the RECEIVE, which may have taken messages that the
 * caller did not get: they stay deleted in the transaction, which a cancelled batch leaves open and committable (the
 * adapter does not SET XACT_ABORT ON), so the caller must make it roll back.
 *
 * <p>What this cannot see: a cancellation that reaches SQL Server after the RECEIVE ended but before the first packet
 * of the SELECT's result left it is reported like one that ended the wait. SQL Server offers no way to tell them apart
 * afterwards (RECEIVE ... INTO takes only a table variable, which the aborted batch drops; TRY ... CATCH does not catch
 * a client's attention), so that short window stays.
 *
 * <p>Each execution is tracked on its own: a cancellation that reached an earlier statement, or one that came too late
 * to end its statement, never makes a later statement's failure look like a cancellation.
 */
final class CancellableStatement {

    private final AtomicReference<Execution> running = new AtomicReference<>();
    private volatile boolean closed;

    /** Ends the statement running now (the driver cancels it); without one running it does nothing. */
    void cancel() {
        Execution e = running.get();
        if (e != null) {
            e.cancelled = true;
            try {
                e.statement.cancel();
            } catch (SQLException finished) {
                // the statement finished meanwhile
            }
        }
    }

    /**
     * Ends the statement running now and every later one before it starts (a stop: a statement that comes after it,
     * such as the WAITFOR after the queries that choose a group, must not wait out its whole timeout).
     */
    void close() {
        closed = true;
        cancel();
    }

    /** Returns whether {@link #close()} was called: no statement runs any more. */
    boolean isClosed() {
        return closed;
    }

    /**
     * Runs a statement, published for {@link #cancel()} while it runs.
     *
     * @param statement the statement
     * @param work executes it and reads its results, calling the given {@link Runnable} once its first result began
     * @param <T> what the work returns
     * @return what the work returned
     * @throws SQLException the statement's failure: a {@link Cancelled} if {@link #cancel()} reached it
     */
    <T> T run(Statement statement, Work<T> work) throws SQLException {
        Execution e = new Execution(statement);
        running.set(e);
        try {
            // after publishing: a close() either sees this execution or is seen here; one that comes between this check
            // and the driver sending the statement is lost (mssql-jdbc ignores a cancel before that), and the
            // statement then runs its course
            if (closed) {
                e.cancelled = true;
                throw new SQLException("cancelled before it started: the reader stopped");
            }
            return work.run(() -> e.resultBegun = true);
        } catch (SQLException failure) {
            if (e.cancelled) {
                throw new Cancelled(failure, e.resultBegun);
            }
            throw failure;
        } finally {
            running.compareAndSet(e, null);
        }
    }

    /** Executes a statement and reads its results. */
    @FunctionalInterface
    interface Work<T> {
        /**
         * Executes the statement and returns what it read from the results.
         *
         * @param resultBegun to call once the statement's first result began (execute returned)
         * @throws SQLException on failure
         */
        T run(Runnable resultBegun) throws SQLException;
    }

    private static final class Execution {
        final Statement statement;
        volatile boolean cancelled;
        volatile boolean resultBegun;

        Execution(Statement statement) {
            this.statement = statement;
        }
    }

    /** The failure of a statement that {@link #cancel()} reached, as the driver reported it. */
    static final class Cancelled extends SQLException {

        private static final long serialVersionUID = 1L;

        private final boolean afterResultBegan;

        Cancelled(SQLException reported, boolean afterResultBegan) {
            super(reported.getMessage(), reported.getSQLState(), reported.getErrorCode(), reported);
            this.afterResultBegan = afterResultBegan;
        }

        /**
         * Returns whether the statement's first result had begun when the cancellation was reported: a RECEIVE batch
         * may then have taken messages that the caller did not get.
         */
        boolean afterResultBegan() {
            return afterResultBegan;
        }
    }
}
