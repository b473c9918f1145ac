package org.ssbjca.conformance;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.Broker;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.portable.PortableBroker;

/** A database with the portable schema installed, and its broker. */
abstract class PortableFixture implements BackendFixture {

    private final ConnectionSource source;
    private final PortableBroker broker;

    PortableFixture(DatabaseConfig config) {
        source = new ConnectionSource(config);
        broker = new PortableBroker(source, BackgroundRunner.daemonThreads(), Conformance.PORTABLE_OPTIONS);
        try (Connection c = source.open()) {
            broker.prepareSchema(c, true);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot install the portable schema on " + config, e);
        }
    }

    @Override
    public Broker broker() {
        return broker;
    }

    @Override
    public Connection connect() throws SQLException {
        return source.open();
    }

    @Override
    public javax.sql.XAConnection connectXa() throws SQLException {
        return source.openXa();
    }

    /** Runs one statement that changes a session setting. */
    static void set(Connection c, String statement) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }
}
