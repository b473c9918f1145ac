package org.ssbjca.backend.sqlserver;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.transaction.xa.XAResource;
import org.ssbjca.backend.BackendKind;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.Broker;
import org.ssbjca.backend.BrokerAdmin;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.DeliveryLedger;
import org.ssbjca.backend.GroupPresence;
import org.ssbjca.backend.QueueSignals;
import org.ssbjca.backend.SchemaVersion;
import org.ssbjca.support.ConnectionLossXAResource;

/**
 * Native SQL Server Service Broker through mssql-jdbc: every verb is the real T-SQL statement ({@link TSql}), the
 * broker's queues, conversations, timers and lifetimes are SQL Server's own, and readers wait with WAITFOR. The
 * adapter adds only its tables in schema {@code ssb} (priorities, delivery attempts, dead letters), created by
 * {@code sql/sqlserver/install.sql}.
 *
 * <p>XA branches are started tightly coupled ({@link TightlyCoupledXAResource}). Nothing runs in the background, so
 * the {@link BackgroundRunner} is not used.
 */
public final class SqlServerBroker implements Broker {

    private final DatabaseConfig config;
    private final QueueSignals signals = new QueueSignals();
    private final GroupPresence priorities = new GroupPresence();
    private final GroupPresence holds = GroupPresence.ofHolds();

    /**
     * @param source where the database is
     * @param runner background task runner; SQL Server needs none
     */
    public SqlServerBroker(ConnectionSource source, BackgroundRunner runner) {
        this.config = source.config();
        if (config.kind() != BackendKind.SQLSERVER) {
            throw new IllegalArgumentException("not a SQL Server database: " + config);
        }
    }

    @Override
    public BackendKind kind() {
        return BackendKind.SQLSERVER;
    }

    @Override
    public DatabaseConfig config() {
        return config;
    }

    @Override
    public BrokerSession session(Connection connection) {
        return new SqlServerSession(signals, priorities, holds, connection);
    }

    @Override
    public DeliveryLedger ledger(Connection connection) {
        return new SqlServerLedger(connection);
    }

    @Override
    public org.ssbjca.backend.TableQueue tableQueue(org.ssbjca.backend.TableDefinition.Resolved table) {
        return new SqlServerTableQueue(table);
    }

    @Override
    public BrokerAdmin admin(Connection connection) {
        return new SqlServerAdmin(connection);
    }

    /**
     * @return the driver's resource wrapped so that every branch starts tightly coupled, then as every backend's
     *         (a lost connection, mssql-jdbc's SQL state {@code 08S01}, reported as {@code XAER_RMFAIL})
     */
    @Override
    public XAResource xaResource(XAResource driverResource) {
        return driverResource instanceof ConnectionLossXAResource ? driverResource
                : Broker.super.xaResource(new TightlyCoupledXAResource(driverResource));
    }

    /** Checks the version of the objects {@code sql/sqlserver/install.sql} installed; never creates them. */
    @Override
    public void prepareSchema(Connection connection, boolean create) throws SQLException {
        SchemaVersion.check(connection, TSqlLedger.SCHEMA_VERSION, "sql/sqlserver/install.sql (as a DBA)");
    }

    @Override
    public QueueSignals signals() {
        return signals;
    }

    /**
     * Sets how long statements of this connection wait for a lock, for the rest of the session (SET LOCK_TIMEOUT).
     *
     * @param connection the connection
     * @param millis -1 to wait forever, 0 not to wait, else milliseconds
     * @throws SQLException on error
     */
    public static void setLockTimeout(Connection connection, long millis) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(TSql.setLockTimeout(millis));
        }
    }

    /** Nothing to stop: SQL Server waits for messages itself. Idempotent. */
    @Override
    public void close() {
        // no background work
    }

    @Override
    public String toString() {
        return "SqlServerBroker[" + config + "]";
    }
}
