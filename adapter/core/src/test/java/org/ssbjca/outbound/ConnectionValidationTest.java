package org.ssbjca.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.spi.ManagedConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.ssbjca.adapter.ServiceBrokerResourceAdapter;
import org.ssbjca.fakes.FakeBootstrapContext;

/** The pool's validation finds the connections a database restart left broken. */
class ConnectionValidationTest {

    @Test
    void aConnectionIsValidUntilItsDatabaseGoesAway() throws Exception {
        String url = "jdbc:h2:mem:validation-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        ServiceBrokerResourceAdapter ra = new ServiceBrokerResourceAdapter();
        ra.setConnectionUrl(url);
        ra.start(new FakeBootstrapContext());
        try {
            ServiceBrokerManagedConnectionFactory mcf = new ServiceBrokerManagedConnectionFactory();
            mcf.setResourceAdapter(ra);
            ManagedConnection a = mcf.createManagedConnection(null, null);
            ManagedConnection b = mcf.createManagedConnection(null, null);
            assertEquals(Set.of(), mcf.getInvalidConnections(Set.of(a, b)), "both work");

            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                s.execute("SHUTDOWN");
            }

            Set<?> invalid = mcf.getInvalidConnections(Set.of(a, b));
            assertEquals(Set.of(a, b), invalid, "the database went away under both");
            assertTrue(mcf.matchManagedConnections(Set.of(), null, null) == null);
            a.destroy();
            b.destroy();
        } finally {
            ra.stop();
        }
    }
}
