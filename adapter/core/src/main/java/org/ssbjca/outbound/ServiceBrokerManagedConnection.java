package org.ssbjca.outbound;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.LazyEnlistableConnectionManager;
import jakarta.resource.spi.LazyEnlistableManagedConnection;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionMetaData;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import javax.security.auth.Subject;
import javax.sql.XAConnection;
import javax.transaction.xa.XAResource;
import org.ssbjca.brokers.BrokerRegistry;
import org.ssbjca.api.BrokerException;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.brokers.DeliveryContext;
import org.ssbjca.support.AdapterLog;
import org.ssbjca.support.CompletionAwareXAResource;

/**
 * One physical XA connection to the broker database, pooled by the container. Verbs run in the JTA transaction it
 * is enlisted in, in a local transaction the container began, or — outside both — each in a transaction of its own.
 * When the caller is a bean handling a delivery of this adapter in the same transaction (or, for a bean without a
 * JTA transaction, in the reader's local transaction), verbs run on the reader's connection instead (see
 * {@link DeliveryContext}).
 * <p>
 * It is lazily enlistable: a container that supports it (WildFly does) does not enlist it when a handle is taken, and
 * the first verb that runs on this connection in a JTA transaction enlists it then
 * ({@link LazyEnlistableConnectionManager#lazyEnlist}). A reply from inside a delivery runs on the reader's connection
 * and never enlists this one, so the delivery's transaction has one resource, the reader's branch, and commits in one
 * phase (docs/design/lazy-enlistment.md).
 */
final class ServiceBrokerManagedConnection implements ManagedConnection, LazyEnlistableManagedConnection {

    private static final AdapterLog LOG = AdapterLog.of(ServiceBrokerManagedConnection.class);
    private static final int VALIDATION_TIMEOUT_SECONDS = 5;

    private final ServiceBrokerManagedConnectionFactory mcf;
    private final DatabaseConfig database;
    private final XAConnection xa;
    private final Connection connection;
    private final BrokerSession session;
    private final CompletionAwareXAResource completion;
    private final XAResource enlisted;
    private final Set<ConnectionHandle> handles = ConcurrentHashMap.newKeySet();
    private final List<ConnectionEventListener> listeners = new CopyOnWriteArrayList<>();
    private volatile boolean localTransaction;
    private volatile boolean destroyed;
    private volatile boolean broken;
    /** When a transaction last committed on this connection ({@link System#nanoTime}); valid once committed. */
    private volatile long committedAt;
    private volatile boolean committed;
    private PrintWriter logWriter;

    ServiceBrokerManagedConnection(ServiceBrokerManagedConnectionFactory mcf, BrokerRegistry.Entry entry)
            throws SQLException {
        this.mcf = mcf;
        this.database = entry.source().config();
        this.xa = entry.source().openXa();
        try {
            this.connection = xa.getConnection();
            this.session = entry.broker().session(connection);
            // every end of this connection's transactions writes what the session held back first: the XA branch's
            // end (below), this connection's own and local transactions' commit (end)
            session.deferWrites();
            this.completion = new CompletionAwareXAResource(xa.getXAResource(), session::flush, done -> {
                if (done) {
                    committedAt = System.nanoTime();
                    committed = true;
                }
                session.afterCompletion(done);
            });
            session.knowBranchesBy(completion::isActive);
            this.enlisted = new RecoveringXAResource(entry.broker().xaResource(completion), entry::recoveryResource,
                    this::isUsable);
        } catch (SQLException | RuntimeException e) {
            xa.close();
            throw e;
        }
    }

    ServiceBrokerManagedConnectionFactory factory() {
        return mcf;
    }

    boolean isUsable() {
        return !destroyed && !broken;
    }

    /**
     * Asks the database whether this connection still works (a round trip), for the pool's validation: a
     * connection that outlived a database restart is found broken here, before it is handed out, instead of
     * failing the application's next call.
     *
     * A connection that committed less than the factory's {@code validationIntervalMillis} ago is not asked: the
     * database has just answered on it (unless a connection of the factory found it gone since).
     *
     * @return whether the connection is usable and the database answers on it
     */
    boolean isValid() {
        if (!isUsable()) {
            return false;
        }
        if (committed && mcf.skipsValidation(committedAt)) {
            return true;
        }
        try {
            if (connection.isValid(VALIDATION_TIMEOUT_SECONDS)) {
                return true;
            }
        } catch (SQLException e) {
            // not valid
        }
        mcf.databaseLost();
        return false;
    }

    @Override
    public Object getConnection(Subject subject, ConnectionRequestInfo info) throws ResourceException {
        if (destroyed) {
            throw new ResourceException("this managed connection was destroyed");
        }
        ConnectionHandle h = new ConnectionHandle(this);
        handles.add(h);
        return h;
    }

    @Override
    public void associateConnection(Object handle) throws ResourceException {
        if (!(handle instanceof ConnectionHandle h)) {
            throw new ResourceException("not an ssb-jca connection handle: " + handle);
        }
        h.reassociate(this);
        handles.add(h);
    }

    void forget(ConnectionHandle h) {
        handles.remove(h);
    }

    /**
     * Runs one verb: on the delivery's session when the caller handles a delivery of this database in the same
     * transaction; else on this connection, in its transaction, or in a transaction of its own.
     */
    <T> T execute(Function<BrokerSession, T> verb, LazyEnlistableConnectionManager enlister) {
        BrokerSession shared = deliverySession();
        if (shared != null) {
            return verb.apply(shared);
        }
        enlistIfLazy(enlister);
        boolean own = !completion.isActive() && !localTransaction;
        try {
            if (own) {
                connection.setAutoCommit(false);
            }
            T result = verb.apply(session);
            if (own) {
                session.flush(); // here, so that a held BEGIN DIALOG's failure reaches the caller as itself
                end(true);
            }
            return result;
        } catch (SQLException e) {
            if (own) {
                rollbackQuietly();
            }
            fail(e);
            throw new BrokerException("broker connection failed: " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            // an Error too: left open, the verb's work would be committed by the next verb on this pooled connection
            if (own) {
                rollbackQuietly();
            }
            if (e.getCause() instanceof SQLException) {
                fail((SQLException) e.getCause());
            }
            throw e;
        }
    }

    /**
     * Returns the session of the delivery of this database the caller handles in its transaction (or without one, in
     * the reader's local transaction), or null.
     */
    BrokerSession deliverySession() {
        return DeliveryContext.sessionFor(database, mcf.resourceAdapter().transactionKey());
    }

    /**
     * Returns the JDBC connection verbs run on now (the delivery's, when shared; else this one, enlisted).
     *
     * @param enlister the container's connection manager when it enlists lazily, else null
     */
    Connection currentConnection(LazyEnlistableConnectionManager enlister) {
        BrokerSession shared = deliverySession();
        if (shared != null) {
            return shared.connection();
        }
        enlistIfLazy(enlister);
        return session.connection(); // this connection; the session then forgets what its verbs know of the rows
    }

    /**
     * Enlists this connection in the caller's JTA transaction before it works in it, when the container left that to
     * the first use; nothing when it is enlisted already (its branch is started), in a local transaction, or when the
     * caller has no JTA transaction (the container then does nothing).
     */
    private void enlistIfLazy(LazyEnlistableConnectionManager enlister) {
        if (enlister == null || completion.isActive() || localTransaction
                || mcf.resourceAdapter().transactionKey() == null) {
            return;
        }
        try {
            enlister.lazyEnlist(this);
        } catch (ResourceException e) {
            throw new BrokerException("cannot enlist the broker connection in the caller's transaction: "
                    + e.getMessage(), e);
        }
    }

    private void rollbackQuietly() {
        try {
            connection.rollback();
            connection.setAutoCommit(true);
        } catch (SQLException e) {
            fail(e);
        } finally {
            session.afterCompletion(false);
        }
    }

    /** Reports the connection to the pool as broken when the database no longer answers on it. */
    private void fail(SQLException e) {
        boolean valid;
        try {
            valid = connection.isValid(2);
        } catch (SQLException ignored) {
            valid = false;
        }
        if (!valid) {
            mcf.databaseLost();
        }
        if (!valid && !broken) {
            broken = true;
            LOG.connectionBroken(database, e.getMessage());
            ConnectionEvent event = new ConnectionEvent(this, ConnectionEvent.CONNECTION_ERROR_OCCURRED, e);
            listeners.forEach(l -> l.connectionErrorOccurred(event));
        }
    }

    void closed(ConnectionHandle h) {
        handles.remove(h);
        ConnectionEvent event = new ConnectionEvent(this, ConnectionEvent.CONNECTION_CLOSED);
        event.setConnectionHandle(h);
        listeners.forEach(l -> l.connectionClosed(event));
    }

    void localTransactionStarted() throws SQLException {
        connection.setAutoCommit(false);
        localTransaction = true;
    }

    void localTransactionEnded(boolean commit) throws SQLException {
        try {
            end(commit);
        } finally {
            localTransaction = false;
        }
    }

    /**
     * Ends this connection's own or local transaction, back to auto-commit, and tells the session. A commit writes
     * what the session held back first; when that fails, the transaction rolls back instead. A rollback of a
     * transaction that already ended (a container's rollback after a commit that failed so) does nothing.
     */
    private void end(boolean commit) throws SQLException {
        if (commit) {
            try {
                session.flush();
            } catch (RuntimeException e) {
                end(false);
                throw new SQLException("the transaction rolled back: " + e.getMessage(), e);
            }
            connection.commit();
            connection.setAutoCommit(true);
            session.afterCompletion(true);
            return;
        }
        try {
            if (!connection.getAutoCommit()) {
                connection.rollback();
            }
        } finally {
            try {
                connection.setAutoCommit(true);
            } finally {
                session.afterCompletion(false);
            }
        }
    }

    void fireLocalTransactionEvent(int type) {
        ConnectionEvent event = new ConnectionEvent(this, type);
        for (ConnectionEventListener l : listeners) {
            switch (type) {
                case ConnectionEvent.LOCAL_TRANSACTION_STARTED -> l.localTransactionStarted(event);
                case ConnectionEvent.LOCAL_TRANSACTION_COMMITTED -> l.localTransactionCommitted(event);
                default -> l.localTransactionRolledback(event);
            }
        }
    }

    @Override
    public void cleanup() throws ResourceException {
        handles.forEach(ConnectionHandle::invalidate);
        handles.clear();
        if (localTransaction) {
            rollbackQuietly();
            localTransaction = false;
        }
    }

    @Override
    public void destroy() throws ResourceException {
        destroyed = true;
        cleanup();
        try {
            connection.close();
        } catch (SQLException e) {
            LOG.closingDiscardedConnectionFailed(e);
        }
        try {
            xa.close();
        } catch (SQLException e) {
            LOG.closingDiscardedConnectionFailed(e);
        }
    }

    @Override
    public void addConnectionEventListener(ConnectionEventListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeConnectionEventListener(ConnectionEventListener listener) {
        listeners.remove(listener);
    }

    @Override
    public XAResource getXAResource() {
        return enlisted;
    }

    @Override
    public LocalTransaction getLocalTransaction() {
        return new BrokerLocalTransaction(this);
    }

    @Override
    public ManagedConnectionMetaData getMetaData() throws ResourceException {
        return new MetaData(database);
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    private static final class MetaData implements ManagedConnectionMetaData {
        private final DatabaseConfig database;

        MetaData(DatabaseConfig database) {
            this.database = database;
        }

        @Override
        public String getEISProductName() {
            return database.kind().name();
        }

        @Override
        public String getEISProductVersion() {
            return "";
        }

        @Override
        public int getMaxConnections() {
            return 0;
        }

        @Override
        public String getUserName() {
            return database.user() == null ? "" : database.user();
        }
    }
}
