package org.ssbjca.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.spi.ManagedConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Set;
import java.util.UUID;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.Test;
import org.ssbjca.adapter.ServiceBrokerResourceAdapter;
import org.ssbjca.fakes.FakeBootstrapContext;
import org.ssbjca.fakes.TestXid;

/** The pool's validation finds the connections a database restart left broken. */
class ConnectionValidationTest {

    @Test
    void aConnectionIsValidUntilItsDatabaseGoesAway() throws Exception {
        String url = "jdbc:h2:mem:validation-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        ServiceBrokerResourceAdapter ra = started(url);
        try {
            ServiceBrokerManagedConnectionFactory mcf = new ServiceBrokerManagedConnectionFactory();
            mcf.setResourceAdapter(ra);
            ManagedConnection a = mcf.createManagedConnection(null, null);
            ManagedConnection b = mcf.createManagedConnection(null, null);
            assertEquals(Set.of(), mcf.getInvalidConnections(Set.of(a, b)), "both work");

            shutdown(url);

            Set<?> invalid = mcf.getInvalidConnections(Set.of(a, b));
            assertEquals(Set.of(a, b), invalid, "the database went away under both");
            assertTrue(mcf.matchManagedConnections(Set.of(), null, null) == null);
            a.destroy();
            b.destroy();
        } finally {
            ra.stop();
        }
    }

    /**
     * The round trip is skipped for a connection that committed within {@code validationIntervalMillis} (the database
     * has just answered on it), not for one that did not, and no longer once any connection of the factory found the
     * database gone: after a restart that a call or a check met, no stale connection is handed out
     * ({@code PostgresRestartIT} failed a call after PostgreSQL's return before the last part). The database goes
     * away right after the commit, so whether a check ran shows in the result.
     */
    @Test
    void aConnectionThatJustCommittedIsNotAskedUntilAnotherFindsTheDatabaseGone() throws Exception {
        String url = "jdbc:h2:mem:validation-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        ServiceBrokerResourceAdapter ra = started(url);
        try {
            ServiceBrokerManagedConnectionFactory mcf = new ServiceBrokerManagedConnectionFactory();
            assertEquals(ServiceBrokerManagedConnectionFactory.DEFAULT_VALIDATION_INTERVAL_MILLIS,
                    mcf.getValidationIntervalMillis());
            mcf.setValidationIntervalMillis(60_000);
            mcf.setResourceAdapter(ra);
            ManagedConnection used = mcf.createManagedConnection(null, null);
            ManagedConnection other = mcf.createManagedConnection(null, null);
            commitOn(used);
            shutdown(url);

            assertEquals(Set.of(), mcf.getInvalidConnections(Set.of(used)), "just committed: handed out unasked");
            assertEquals(Set.of(other), mcf.getInvalidConnections(Set.of(other)), "the other is asked: gone");
            assertEquals(Set.of(used), mcf.getInvalidConnections(Set.of(used)),
                    "now that a connection found the database gone, the one that committed is asked too");
            used.destroy();
            other.destroy();
        } finally {
            ra.stop();
        }
    }

    @Test
    void withAnIntervalOfZeroEveryConnectionIsAsked() throws Exception {
        String url = "jdbc:h2:mem:validation-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        ServiceBrokerResourceAdapter ra = started(url);
        try {
            ServiceBrokerManagedConnectionFactory mcf = new ServiceBrokerManagedConnectionFactory();
            mcf.setValidationIntervalMillis(0);
            mcf.setResourceAdapter(ra);
            ManagedConnection used = mcf.createManagedConnection(null, null);
            commitOn(used);
            shutdown(url);

            assertEquals(Set.of(used), mcf.getInvalidConnections(Set.of(used)), "asked although it just committed");
            used.destroy();
        } finally {
            ra.stop();
        }
    }

    private static void commitOn(ManagedConnection mc) throws Exception {
        XAResource xa = mc.getXAResource();
        Xid xid = TestXid.next("validation");
        xa.start(xid, XAResource.TMNOFLAGS);
        xa.end(xid, XAResource.TMSUCCESS);
        xa.commit(xid, true);
    }

    private static void shutdown(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("SHUTDOWN");
        }
    }

    @Test
    void aValidationIntervalOutOfRangeFailsNamingTheProperty() throws Exception {
        ServiceBrokerResourceAdapter ra = started("jdbc:h2:mem:validation-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        try {
            for (int bad : new int[] {-1, 60_001}) {
                ServiceBrokerManagedConnectionFactory mcf = new ServiceBrokerManagedConnectionFactory();
                mcf.setValidationIntervalMillis(bad);
                jakarta.resource.spi.InvalidPropertyException e = org.junit.jupiter.api.Assertions.assertThrows(
                        jakarta.resource.spi.InvalidPropertyException.class, () -> mcf.setResourceAdapter(ra));
                assertTrue(e.getMessage().contains("'validationIntervalMillis'")
                        && e.getMessage().contains("0 to 60000"), e.getMessage());
            }
        } finally {
            ra.stop();
        }
    }

    private static ServiceBrokerResourceAdapter started(String url) throws Exception {
        ServiceBrokerResourceAdapter ra = new ServiceBrokerResourceAdapter();
        ra.setConnectionUrl(url);
        ra.start(new FakeBootstrapContext());
        return ra;
    }
}
