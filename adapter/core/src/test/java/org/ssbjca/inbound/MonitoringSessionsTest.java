package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.inbound.table.TableActivationTest.createJobQueue;
import static org.ssbjca.inbound.table.TableActivationTest.jobSpec;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.portable.SessionCountingSocketFactory;
import org.ssbjca.conformance.PostgresServer;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.inbound.table.TableActivationSpec;
import org.ssbjca.management.QueueReadings;

/**
 * What one scrape costs in sessions: every attribute of every MBean of the adapter (a queue activation's and a table
 * activation's, those the monitoring and console WARs read), and an activation's cached queue reading taken anew, are
 * read on PostgreSQL after a first such reading (the schema prepared, the readings' connections opened), and the
 * PostgreSQL sessions the reading thread opened are counted (pgjdbc's socket factory): none.
 */
class MonitoringSessionsTest {

    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    @Test
    void readingEveryMonitoringAttributeAgainOpensNoSession() throws Exception {
        DatabaseConfig db = SessionCountingSocketFactory.counted(PostgresServer.get()
                .newDatabase("monitoring_sessions"));
        try (InboundHarness h = new InboundHarness(db, true)) {
            createJobQueue(h);
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> { }, true, h.spec());
            TableActivationSpec spec = jobSpec(h, "leased");
            FakeEndpointFactory table = new FakeEndpointFactory(TableRowListener.class, (TableRowListener) r -> { },
                    true, h.context.transactions());
            h.ra.endpointActivation(table, spec);
            try {
                Set<ObjectName> names = SERVER.queryNames(new ObjectName("org.ssbjca:*"), null);
                assertTrue(names.stream().anyMatch(n -> "Activation".equals(n.getKeyProperty("type")))
                        && names.stream().anyMatch(n -> "TableActivation".equals(n.getKeyProperty("type"))),
                        "a queue and a table activation: " + names);
                int attributes = readAll(h, names);

                long before = SessionCountingSocketFactory.opened();
                readAll(h, names);
                long opened = SessionCountingSocketFactory.opened() - before;
                assertEquals(0, opened, "sessions opened by a second reading of " + attributes + " attributes of "
                        + names);
            } finally {
                h.ra.endpointDeactivation(table, spec);
            }
        }
    }

    /** Reads every readable attribute (failing on any that fails) and each activation's queue reading now. */
    private static int readAll(InboundHarness h, Set<ObjectName> names) throws Exception {
        List<String> read = new ArrayList<>();
        for (ObjectName name : names) {
            for (MBeanAttributeInfo attribute : SERVER.getMBeanInfo(name).getAttributes()) {
                if (attribute.isReadable()) {
                    SERVER.getAttribute(name, attribute.getName());
                    read.add(attribute.getName());
                }
            }
        }
        for (EndpointActivation a : h.ra.activations()) {
            QueueReadings.read(a);
        }
        return read.size();
    }
}
