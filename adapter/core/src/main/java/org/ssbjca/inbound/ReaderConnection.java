package org.ssbjca.inbound;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.XAConnection;
import javax.transaction.xa.XAResource;
import org.ssbjca.adapter.BrokerRegistry;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.support.CompletionAwareXAResource;

/**
 * A reader's own physical connection. The JDBC handle stays open for the reader's life: closing it while an XA
 * branch is open would make some drivers (H2) roll the branch back silently.
 */
final class ReaderConnection implements AutoCloseable {

    private final XAConnection xa;
    private final Connection connection;
    private final BrokerSession session;
    private final CompletionAwareXAResource completion;
    private final XAResource enlisted;
    private volatile Boolean lastOutcome;

    private ReaderConnection(BrokerRegistry.Entry database) throws SQLException {
        xa = database.source().openXa();
        try {
            connection = xa.getConnection();
            session = database.broker().session(connection);
            completion = new CompletionAwareXAResource(xa.getXAResource(), committed -> {
                lastOutcome = committed;
                session.afterCompletion(committed);
            });
            enlisted = database.broker().xaResource(completion);
        } catch (SQLException | RuntimeException e) {
            xa.close();
            throw e;
        }
    }

    static ReaderConnection open(BrokerRegistry.Entry database) throws SQLException {
        return new ReaderConnection(database);
    }

    Connection connection() {
        return connection;
    }

    BrokerSession session() {
        return session;
    }

    /** @return the resource the container enlists in each delivery's transaction */
    XAResource xaResource() {
        return enlisted;
    }

    /** Makes the current transacted delivery roll back. */
    void setRollbackOnly() {
        completion.setRollbackOnly();
    }

    /** @return how the last transaction of this connection ended (true: committed), then forgets it */
    Boolean takeOutcome() {
        Boolean o = lastOutcome;
        lastOutcome = null;
        return o;
    }

    void commitLocal() throws SQLException {
        connection.commit();
        lastOutcome = Boolean.TRUE;
        session.afterCompletion(true);
    }

    void rollbackLocal() throws SQLException {
        try {
            connection.rollback();
        } finally {
            lastOutcome = Boolean.FALSE;
            session.afterCompletion(false);
        }
    }

    /** Wakes a RECEIVE that is waiting on another thread. */
    void cancel() {
        session.cancel();
    }

    @Override
    public void close() {
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
