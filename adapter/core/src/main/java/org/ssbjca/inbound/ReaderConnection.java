package org.ssbjca.inbound;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.XAConnection;
import javax.transaction.xa.XAResource;
import org.ssbjca.brokers.BrokerRegistry;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.DeliveryLedger;
import org.ssbjca.support.CompletionAwareXAResource;

/**
 * A reader's own physical connection. The JDBC handle stays open for the reader's life: closing it while an XA
 * branch is open would make some drivers (H2) roll the branch back silently.
 */
public final class ReaderConnection implements AutoCloseable {

    private final XAConnection xa;
    private final Connection connection;
    private final BrokerSession session;
    private final CompletionAwareXAResource completion;
    private final XAResource enlisted;
    private final BrokerRegistry.Entry database;
    private Connection bookkeeping;
    private long bookkeepingUsedAt;
    /** A bookkeeping connection idle longer than this is checked before it is used (one round trip). */
    private static final long BOOKKEEPING_IDLE_CHECK_NANOS = 1_000_000_000L;
    /** How long a connection may take to say whether it is still alive. */
    private static final int ALIVE_CHECK_SECONDS = 2;
    private volatile TransactionOutcome lastOutcome = TransactionOutcome.NOT_SEEN;
    private final boolean timeoutIgnored;
    private final Runnable markTransactionRollbackOnly;

    private ReaderConnection(BrokerRegistry.Entry database, int transactionTimeoutSeconds,
            Runnable markTransactionRollbackOnly) throws SQLException {
        this.database = database;
        this.markTransactionRollbackOnly = markTransactionRollbackOnly;
        xa = database.source().openXa();
        try {
            connection = xa.getConnection();
            session = database.broker().session(connection);
            // a delivery's transaction, XA (its branch's end, below) or local (commitLocal), writes what the session
            // held back (a reply's BEGIN DIALOG) before it ends
            session.deferWrites();
            completion = new CompletionAwareXAResource(xa.getXAResource(), session::flush, committed -> {
                lastOutcome = committed ? TransactionOutcome.COMMITTED : TransactionOutcome.ROLLED_BACK;
                session.afterCompletion(committed);
            });
            session.knowBranchesBy(completion::isActive);
            enlisted = database.enlistable(database.broker().xaResource(completion));
            timeoutIgnored = transactionTimeoutSeconds > 0
                    && !completion.limitTransactionTimeout(transactionTimeoutSeconds);
        } catch (SQLException | RuntimeException e) {
            xa.close();
            throw e;
        }
    }

    /**
     * Opens a reader's connection to a database: its XA connection and broker session.
     *
     * @param database the database
     * @param transactionTimeoutSeconds the longest a delivery's branch may stay open in the database, 0 for the
     *        transaction manager's timeout
     * @param markTransactionRollbackOnly marks the container's JTA transaction on the calling thread for rollback, if
     *        there is one ({@code AdapterContext.setTransactionRollbackOnly}); {@link #setRollbackOnly} runs it
     * @throws SQLException if the database cannot be reached, or the broker schema cannot be prepared on it
     */
    public static ReaderConnection open(BrokerRegistry.Entry database, int transactionTimeoutSeconds,
            Runnable markTransactionRollbackOnly) throws SQLException {
        database.prepareSchema();
        return new ReaderConnection(database, transactionTimeoutSeconds, markTransactionRollbackOnly);
    }

    /**
     * Returns whether the connection works in a JTA transaction's branch now: started by the transaction manager and
     * not yet ended (a reaper's rollback ends it while the bean may still run).
     */
    public boolean inBranch() {
        return completion.isActive();
    }

    /** Returns whether a transaction timeout was asked for and the driver's XA resource ignores it. */
    public boolean timeoutIgnored() {
        return timeoutIgnored;
    }

    public Connection connection() {
        return connection;
    }

    public BrokerSession session() {
        return session;
    }

    /** Returns the adapter's bookkeeping on this connection, in its current transaction. */
    DeliveryLedger ledger() {
        return database.broker().ledger(connection);
    }

    /** Returns the resource the container enlists in each delivery's transaction. */
    public XAResource xaResource() {
        return enlisted;
    }

    /**
     * Returns the timeout in seconds of a delivery's branch on this connection (see {@link
     * CompletionAwareXAResource#branchTimeout}): that of the container's transaction its resource was last enlisted in,
     * or the activation's {@code transactionTimeout} when the driver took that cap (SQL Server) and it is smaller; 0
     * when there is neither.
     */
    int transactionTimeout() {
        return completion.branchTimeout();
    }

    /**
     * Returns whether {@link #transactionTimeout} is the activation's {@code transactionTimeout}, smaller than the
     * container's transaction's (or the only one), rather than the transaction manager's.
     */
    boolean transactionTimeoutCapped() {
        int limit = completion.appliedTransactionTimeoutLimit();
        int requested = completion.requestedTransactionTimeout();
        return limit > 0 && (requested <= 0 || limit < requested);
    }

    /**
     * Makes the current transacted delivery roll back: the container's transaction is marked for rollback, so that
     * {@code afterDelivery} rolls it back, and the reader's branch votes to roll back should the container commit all
     * the same.
     */
    public void setRollbackOnly() {
        markTransactionRollbackOnly.run();
        completion.setRollbackOnly();
    }

    /** Returns how the last transaction of this connection ended, then forgets it (the next take is NOT_SEEN). */
    public TransactionOutcome takeOutcome() {
        TransactionOutcome o = lastOutcome;
        lastOutcome = TransactionOutcome.NOT_SEEN;
        return o;
    }

    /**
     * Commits the local transaction, what the session held back written first; one whose commit (or that writing)
     * fails is rolled back (and its outcome is ROLLED_BACK).
     */
    public void commitLocal() throws SQLException {
        try {
            try {
                session.flush();
            } catch (RuntimeException e) {
                throw new SQLException("the transaction rolled back: " + e.getMessage(), e);
            }
            connection.commit();
        } catch (SQLException e) {
            try {
                rollbackLocal();
            } catch (SQLException rollbackFailed) {
                e.addSuppressed(rollbackFailed);
            }
            throw e;
        }
        lastOutcome = TransactionOutcome.COMMITTED;
        session.afterCompletion(true);
    }

    /**
     * Runs work in a local transaction of this connection (auto-commit off for its length): committed when it returns
     * ({@link #commitLocal}), rolled back when it throws anything, an {@link Error} included (turning auto-commit
     * back on would otherwise commit its partial writes); a failed rollback is suppressed by the work's failure.
     *
     * It leaves no outcome behind ({@link #takeOutcome}): its transaction is not a delivery's, and the delivery that
     * follows on this connection must not read it as its own.
     *
     * @param work what to run; its writes commit only when it returns
     * @throws Exception what the work or the commit threw
     */
    void inLocalTransaction(LocalWork work) throws Exception {
        connection.setAutoCommit(false);
        try {
            try {
                work.run();
            } catch (Exception | Error e) {
                try {
                    rollbackLocal();
                } catch (SQLException | RuntimeException rollbackFailed) {
                    e.addSuppressed(rollbackFailed);
                }
                throw e;
            }
            commitLocal();
        } finally {
            lastOutcome = TransactionOutcome.NOT_SEEN;
            connection.setAutoCommit(true);
        }
    }

    /** Work in a local transaction ({@link #inLocalTransaction}). */
    @FunctionalInterface
    interface LocalWork {
        void run() throws Exception;
    }

    public void rollbackLocal() throws SQLException {
        try {
            connection.rollback();
        } finally {
            lastOutcome = TransactionOutcome.ROLLED_BACK;
            session.afterCompletion(false);
        }
    }

    /**
     * A second, plain connection for the adapter's bookkeeping in transactions of its own while a delivery's
     * branch is still open (failed deliveries must be counted before the rollback puts the message back, where
     * another reader could take it). Opened on first use; checked (and opened again if the server ended it) when it
     * has been idle over a second.
     *
     * @return the connection, auto-commit off
     * @throws SQLException if it cannot be opened
     */
    public Connection bookkeeping() throws SQLException {
        long now = System.nanoTime();
        if (bookkeeping != null && now - bookkeepingUsedAt > BOOKKEEPING_IDLE_CHECK_NANOS && !alive(bookkeeping)) {
            // idle since its last use (a queue reader's is used only when a delivery fails): the server may have
            // ended it meanwhile (PostgreSQL's idle_session_timeout, a DBA, a NAT), and the failure it is to count
            // would be lost with it
            try {
                bookkeeping.close();
            } catch (SQLException e) {
                // gone anyway
            }
            bookkeeping = null;
        }
        if (bookkeeping == null) {
            bookkeeping = database.source().open();
        }
        bookkeepingUsedAt = now;
        return bookkeeping;
    }

    /** Returns whether the reader's connection still answers (one round trip; false once it is closed). */
    boolean alive() {
        return alive(connection);
    }

    private static boolean alive(Connection c) {
        try {
            return c.isValid(ALIVE_CHECK_SECONDS);
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    /** Wakes a RECEIVE that is waiting on another thread, and ends every later one at once (the reader stops). */
    void cancel() {
        session.cancel();
    }

    /** Ends a RECEIVE that is waiting on another thread, empty; later ones wait as usual. */
    void wake() {
        session.wake();
    }

    @Override
    public void close() {
        if (bookkeeping != null) {
            try {
                bookkeeping.close();
            } catch (SQLException e) {
                // discarded anyway
            }
        }
        try {
            connection.close();
        } catch (SQLException e) {
            // discarded anyway
        }
        try {
            xa.close();
        } catch (SQLException e) {
            // discarded anyway
        }
    }
}
