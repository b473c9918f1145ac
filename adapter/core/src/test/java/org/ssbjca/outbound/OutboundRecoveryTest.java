package org.ssbjca.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.util.Arrays;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.brokers.BrokerRegistry;
import org.ssbjca.adapter.ServiceBrokerResourceAdapter;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.SentBy;
import org.ssbjca.backend.TestAdmin;
import org.ssbjca.backend.Validation;
import org.ssbjca.conformance.PostgresServer;
import org.ssbjca.fakes.FakeBootstrapContext;
import org.ssbjca.fakes.TcpProxy;
import org.ssbjca.fakes.TestXid;
import org.ssbjca.tiers.Slow;

/**
 * The XA resource a managed connection hands out keeps completing prepared branches when the connection behind it is
 * gone: destroyed by the container (IronJacamar's default recovery plug-in destroys the managed connection it used for
 * recovery at every scan, after the transaction manager got its resource) or dropped by a database restart. Before,
 * the resource answered {@code XAER_RMFAIL} ("This connection has been closed") at every recovery scan and the branch
 * stayed prepared for good; here both cases failed so, on commit.
 */
@Slow
class OutboundRecoveryTest {

    private static final Pattern PORT = Pattern.compile("//[^:/]+:(\\d+)/");

    @ParameterizedTest(name = "connection {0}")
    @ValueSource(strings = {"destroyed", "cut by a database restart"})
    void aPreparedBranchIsCommittedThroughTheResourceAfterItsConnectionIsGone(String how) throws Exception {
        PostgresServer.get().assumePreparedTransactions();
        DatabaseConfig pg = PostgresServer.get().newDatabase("outbound_recovery_" + how.split(" ")[0]);
        Matcher port = PORT.matcher(pg.url());
        assertTrue(port.find(), pg.url());
        try (TcpProxy proxy = new TcpProxy(Integer.parseInt(port.group(1)), 0)) {
            ServiceBrokerResourceAdapter ra = new ServiceBrokerResourceAdapter();
            ra.setConnectionUrl(pg.url().replace(":" + port.group(1) + "/", ":" + proxy.port() + "/"));
            ra.setUser(pg.user());
            ra.setPassword(pg.password());
            ra.start(new FakeBootstrapContext());
            try {
                BrokerRegistry.Entry db = ra.registry().get(ra.defaultDatabase());
                db.prepareSchema();
                try (Connection c = db.source().open()) {
                    TestAdmin admin = TestAdmin.of(db.broker(), c);
                    admin.createMessageType(OutboundFixture.REQUEST, Validation.NONE);
                    admin.createContract(OutboundFixture.CONTRACT, Map.of(OutboundFixture.REQUEST, SentBy.ANY));
                    admin.createQueue("InitiatorQueue");
                    admin.createQueue(OutboundFixture.TARGET_QUEUE);
                    admin.createService(OutboundFixture.INITIATOR, "InitiatorQueue");
                    admin.createService(OutboundFixture.TARGET, OutboundFixture.TARGET_QUEUE, OutboundFixture.CONTRACT);
                    c.commit();
                }
                ServiceBrokerManagedConnectionFactory mcf = new ServiceBrokerManagedConnectionFactory();
                mcf.setResourceAdapter(ra);
                ServiceBrokerManagedConnection mc =
                        (ServiceBrokerManagedConnection) mcf.createManagedConnection(null, null);
                XAResource resource = mc.getXAResource();
                Xid xid = TestXid.next("outbound-recovery");
                resource.start(xid, XAResource.TMNOFLAGS);
                OutboundFixture.sendRequest((ServiceBrokerConnection) mc.getConnection(null, null), "in doubt");
                resource.end(xid, XAResource.TMSUCCESS);
                assertEquals(XAResource.XA_OK, resource.prepare(xid));

                if (how.equals("destroyed")) {
                    mc.destroy();
                } else {
                    proxy.cut();
                }

                Xid[] inDoubt = resource.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN);
                assertTrue(Arrays.stream(inDoubt).anyMatch(x -> Arrays.equals(x.getGlobalTransactionId(),
                        xid.getGlobalTransactionId())), "the prepared branch is listed");
                resource.commit(xid, false);
                try (Connection c = db.source().open()) {
                    assertEquals(1, db.broker().admin(c).queueDepth(OutboundFixture.TARGET_QUEUE),
                            "the branch's message committed");
                }
                assertEquals(0, resource.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN).length,
                        "nothing left in doubt");
                if (!how.equals("destroyed")) {
                    mc.destroy();
                }
            } finally {
                ra.stop();
            }
        }
    }
}
