package org.ssbjca.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ManagedConnection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.ssbjca.adapter.ServiceBrokerResourceAdapter;
import org.ssbjca.api.BrokerException;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/** The managed connection factory: what the pool matches, identity, and the connection factory it makes. */
class ManagedConnectionFactoryTest {

    private OutboundFixture fx;

    @BeforeEach
    void start() throws Exception {
        fx = new OutboundFixture();
    }

    @AfterEach
    void stop() {
        fx.close();
    }

    @Test
    void theFirstOutboundConnectionPreparesTheSchemaThatNothingPreparedAtStart() throws Exception {
        ServiceBrokerResourceAdapter ra = new ServiceBrokerResourceAdapter();
        ra.setConnectionUrl("jdbc:h2:mem:first-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        ra.start(new org.ssbjca.fakes.FakeBootstrapContext());
        try {
            ServiceBrokerManagedConnectionFactory mcf = new ServiceBrokerManagedConnectionFactory();
            mcf.setResourceAdapter(ra);
            ManagedConnection mc = mcf.createManagedConnection(null, null);
            try (java.sql.Connection c = ra.registry().get(ra.defaultDatabase()).source().open()) {
                assertEquals(1, org.ssbjca.backend.Jdbc.count(c, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES"
                        + " WHERE TABLE_SCHEMA = 'SSB' AND TABLE_NAME = 'DEAD_LETTER'"), "the schema is ready");
            }
            mc.destroy();
        } finally {
            ra.stop();
        }
    }

    @Test
    void matchManagedConnectionsTakesOnlyUsableConnectionsOfAnEqualFactory() throws Exception {
        ServiceBrokerManagedConnectionFactory mcf = fx.mcf();
        ServiceBrokerManagedConnection ours = (ServiceBrokerManagedConnection) mcf.createManagedConnection(null, null);
        ServiceBrokerManagedConnectionFactory elsewhere = fx.mcf();
        elsewhere.setConnectionUrl("jdbc:h2:mem:other-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        ManagedConnection foreign = elsewhere.createManagedConnection(null, null);
        ServiceBrokerManagedConnection destroyed =
                (ServiceBrokerManagedConnection) mcf.createManagedConnection(null, null);
        destroyed.destroy();

        Set<Object> pool = new LinkedHashSet<>();
        pool.add("not a managed connection");
        pool.add(foreign);
        pool.add(destroyed);
        assertNull(mcf.matchManagedConnections(pool, null, null), "nothing usable of this factory");
        pool.add(ours);
        assertSame(ours, mcf.matchManagedConnections(pool, null, null));
        assertSame(ours, fx.mcf().matchManagedConnections(pool, null, null), "an equal factory matches it too");
        assertSame(foreign, elsewhere.matchManagedConnections(pool, null, null));

        ours.destroy();
        foreign.destroy();
    }

    @Test
    void equalFactoriesHaveEqualHashCodesAndEveryConnectionPropertyCounts() throws Exception {
        ServiceBrokerManagedConnectionFactory a = fx.mcf();
        ServiceBrokerManagedConnectionFactory b = fx.mcf();
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals(a, a);
        assertNotEquals(a, null);
        assertNotEquals(a, "a string");

        b.setConnectionUrl("jdbc:h2:mem:elsewhere");
        assertNotEquals(a, b);
        b.setConnectionUrl(null);
        b.setUser("someone");
        assertNotEquals(a, b);
        b.setUser(null);
        b.setPassword("secret");
        assertNotEquals(a, b);
        b.setPassword(null);
        assertEquals(a, b);

        ServiceBrokerResourceAdapter otherAdapter = new ServiceBrokerResourceAdapter();
        otherAdapter.setConnectionUrl("jdbc:h2:mem:another-adapter");
        b.setResourceAdapter(otherAdapter);
        assertNotEquals(a, b, "another adapter's defaults mean another database");
    }

    @Test
    void connectionsNeedAStartedAdapterAndAContainerConnectionManager() throws Exception {
        ServiceBrokerManagedConnectionFactory unassociated = new ServiceBrokerManagedConnectionFactory();
        ResourceException e = assertThrows(ResourceException.class,
                () -> unassociated.createManagedConnection(null, null));
        assertTrue(e.getMessage().contains("not started"), e.getMessage());
        assertThrows(ResourceException.class, () -> fx.mcf().createConnectionFactory());
        assertThrows(ResourceException.class, () -> fx.mcf().setResourceAdapter(null));
        ServiceBrokerManagedConnectionFactory badUrl = new ServiceBrokerManagedConnectionFactory();
        badUrl.setConnectionUrl("jdbc:oracle:thin:@nowhere");
        ResourceException invalid = assertThrows(ResourceException.class,
                () -> badUrl.setResourceAdapter(fx.ra));
        assertTrue(invalid.getMessage().contains("connectionUrl"), invalid.getMessage());
    }

    @Test
    void theConnectionFactoryHandsOutHandlesThroughTheConnectionManager() throws Exception {
        OutboundFixture.UnpooledConnectionManager cm = new OutboundFixture.UnpooledConnectionManager();
        ServiceBrokerConnectionFactory factory =
                (ServiceBrokerConnectionFactory) fx.mcf().createConnectionFactory(cm);

        try (ServiceBrokerConnection broker = factory.getConnection()) {
            OutboundFixture.sendRequest(broker, "through the factory");
        }

        assertEquals(1, fx.targetDepth());
        assertEquals(1, cm.created.size());
        ConnectionManager refusing = (mcf, info) -> {
            throw new ResourceException("pool exhausted");
        };
        ServiceBrokerConnectionFactory failing =
                (ServiceBrokerConnectionFactory) fx.mcf().createConnectionFactory(refusing);
        BrokerException e = assertThrows(BrokerException.class, failing::getConnection);
        assertTrue(e.getMessage().contains("pool exhausted"), e.getMessage());
        for (ManagedConnection mc : cm.created) {
            mc.destroy();
        }
    }
}
