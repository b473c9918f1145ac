package org.ssbjca.inbound.table;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.inbound.InboundBackends;
import org.ssbjca.inbound.InboundHarness;

/**
 * A table activation's {@code transactionTimeout} where the driver ignores it (pgjdbc and H2 return false from
 * {@code XAResource.setTransactionTimeout}): the activation says so once at WARN ({@code SSBJCA0013}), as a queue
 * activation does.
 */
class TableTransactionTimeoutTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aTableActivationSaysOnceThatItsDriverIgnoresTheTransactionTimeout(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
             LogRecords logs = LogRecords.of(TableReader.class)) {
            try (Connection c = h.db.source().open(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE work_item (id INT PRIMARY KEY, payload VARCHAR(20) NOT NULL)");
                s.execute("INSERT INTO work_item (id, payload) VALUES (1, 'first')");
                c.commit();
            }
            List<String> got = new CopyOnWriteArrayList<>();
            TableActivationSpec spec = new TableActivationSpec();
            spec.setResourceAdapter(h.ra);
            spec.setTable("work_item");
            spec.setKeyColumn("id");
            spec.setPayloadColumn("payload");
            spec.setPollMillis("50");
            spec.setMaxReaders("2");
            spec.setTransactionTimeout("30");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class,
                    (TableRowListener) row -> got.add(row.payloadText()), true, h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                await().until(() -> got.size() == 1);
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }

            List<String> warnings = logs.messages(Level.WARNING, "SSBJCA0013");
            assertEquals(1, warnings.size(), "once for the activation's 2 readers: " + warnings);
            assertTrue(warnings.get(0).contains("transactionTimeout=30"), warnings.get(0));
        }
    }
}
