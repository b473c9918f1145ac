package org.ssbjca.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;
import org.ssbjca.it.support.Postgres;

/**
 * Proves what the integration tests stand on: the built RAR deploys into WildFly, and the test PostgreSQL accepts
 * two-phase commit (max_prepared_transactions), which the XA tests need.
 */
@ExtendWith(ArquillianExtension.class)
class InfrastructureIT {

    @Deployment(testable = false)
    static ResourceAdapterArchive rar() {
        return Deployments.rar(IronJacamar.h2InMemory("infrastructure-it"));
    }

    @Test
    @RunAsClient
    void postgresPreparesAndCommitsATwoPhaseTransaction() throws SQLException {
        Postgres db = Postgres.get();
        String table = "it_two_phase_" + UUID.randomUUID().toString().replace("-", "");
        String gid = "ssb-it-" + UUID.randomUUID();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             Statement s = c.createStatement()) {
            assertTrue(Integer.parseInt(scalar(s, "SHOW max_prepared_transactions")) > 0,
                    "max_prepared_transactions must allow two-phase commit");
            s.execute("CREATE TABLE " + table + " (id int)");
            try {
                c.setAutoCommit(false);
                s.execute("INSERT INTO " + table + " VALUES (1)");
                s.execute("PREPARE TRANSACTION '" + gid + "'");
                c.setAutoCommit(true);

                try (PreparedStatement q = c.prepareStatement("SELECT count(*) FROM pg_prepared_xacts WHERE gid = ?")) {
                    q.setString(1, gid);
                    try (ResultSet r = q.executeQuery()) {
                        r.next();
                        assertEquals(1, r.getInt(1), "the prepared transaction is listed");
                    }
                }
                assertEquals("0", scalar(s, "SELECT count(*) FROM " + table), "not visible before COMMIT PREPARED");
                s.execute("COMMIT PREPARED '" + gid + "'");
                assertEquals("1", scalar(s, "SELECT count(*) FROM " + table), "visible after COMMIT PREPARED");
            } finally {
                c.setAutoCommit(true);
                s.execute("DROP TABLE " + table);
            }
        }
    }

    private static String scalar(Statement s, String sql) throws SQLException {
        try (ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getString(1);
        }
    }
}
