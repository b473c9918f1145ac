package org.ssbjca.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

import jakarta.ejb.EJB;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.Postgres;
import org.ssbjca.sample.PingBean;

/**
 * Proves the test infrastructure: WildFly starts, the EJB sample deploys, a test runs in the container, the built RAR
 * can be imported and re-configured, and the test database accepts two-phase commit.
 * <p>
 * The RAR itself is not deployed here: as long as it holds no resource adapter class, WildFly refuses it
 * ("IJ010075: The resource adapter metadata must contain either an outbound or inbound configuration"). So the EJB jar
 * is deployed alone, without its {@code Dependencies: deployment.ssb-jca.rar} manifest entry. Tests of the adapter
 * deploy {@link Deployments#rar()} (order 1, not testable) and {@link Deployments#ejbSample(Class...)} (order 2).
 */
@ExtendWith(ArquillianExtension.class)
class InfrastructureIT {

    @Deployment
    static JavaArchive ejb() {
        return Deployments.ejbSampleWithoutRar(InfrastructureIT.class);
    }

    @EJB
    PingBean ping;

    @Test
    void pingBeanAnswersInTheContainer() {
        assertEquals("pong", ping.ping());
    }

    @Test
    @RunAsClient
    void builtRarImportsAndTakesAnotherIronjacamarXml() throws IOException {
        String descriptor = "<ironjacamar xmlns=\"urn:jboss:ironjacamar:1.3\"/>";
        ResourceAdapterArchive rar = Deployments.rar(descriptor);

        assertEquals(Deployments.RAR_NAME, rar.getName());
        assertTrue(rar.getContent().keySet().stream().anyMatch(p -> p.get().matches("/ssb-jca-core-.*\\.jar")),
                "the RAR holds the implementation jar: " + rar.getContent().keySet());
        try (InputStream in = rar.get("META-INF/ironjacamar.xml").getAsset().openStream()) {
            assertEquals(descriptor, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
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
