package org.ssbjca.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ssbjca.management.Jmx.SERVER;

import jakarta.resource.ResourceException;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import javax.management.JMX;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.ssbjca.adapter.ServiceBrokerResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.fakes.FakeBootstrapContext;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.inbound.InboundHarness;
import org.ssbjca.inbound.ServiceBrokerActivationSpec;

/** Which MBeans exist when: registered with the adapter and each activation, gone with them, never left behind. */
class ManagementRegistrationTest {

    @AfterEach
    void nothingIsLeftBehind() {
        assertEquals(Set.of(), Jmx.registered(), "every org.ssbjca MBean is unregistered once the adapter stops");
    }

    @Test
    void theResourceAdapterMBeanDescribesTheAdapterAndItsActivations() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            ObjectName raName = new ObjectName("org.ssbjca:type=ResourceAdapter");
            assertTrue(SERVER.isRegistered(raName));
            ResourceAdapterMXBean ra = JMX.newMXBeanProxy(SERVER, raName, ResourceAdapterMXBean.class);
            assertEquals("0.1.0", ra.getVersion());
            assertTrue(ra.getDefaultDatabase().startsWith("H2[jdbc:h2:mem:inbound-"), ra.getDefaultDatabase());
            assertEquals(List.of("H2"), ra.getBackends().stream().map(BackendInfo::getKind)
                    .collect(java.util.stream.Collectors.toList()));
            assertEquals(List.of(), ra.getActivations());

            h.activate(BrokerMessageListener.class, new Echo(), true, h.spec());

            String activation = "Echo@" + InboundHarness.TARGET_QUEUE;
            ObjectName name = new ObjectName("org.ssbjca:type=Activation,name=" + activation);
            assertTrue(SERVER.isRegistered(name));
            assertEquals(List.of(activation), ra.getActivations());
            assertEquals(List.of(name), ra.getActivationObjectNames());
        }
    }

    @Test
    void deactivationUnregistersTheActivationAndASecondBeanOfTheSameNameGetsAnInstanceKey() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            FakeEndpointFactory first = h.activate(BrokerMessageListener.class, new Echo(), true, h.spec());
            ServiceBrokerActivationSpec secondSpec = h.spec();
            FakeEndpointFactory second = h.activate(BrokerMessageListener.class, new Echo(), true, secondSpec);
            ObjectName plain = ObjectNames.activation("Echo@" + InboundHarness.TARGET_QUEUE);
            ObjectName instance2 = new ObjectName(plain + ",instance=2");
            assertTrue(SERVER.isRegistered(plain));
            assertTrue(SERVER.isRegistered(instance2));

            h.ra.endpointDeactivation(first, null);

            assertFalse(SERVER.isRegistered(plain));
            assertTrue(SERVER.isRegistered(instance2));
            h.ra.endpointDeactivation(second, secondSpec);
            assertFalse(SERVER.isRegistered(instance2));
        }
    }

    @Test
    void stoppingTheAdapterUnregistersEverythingAndARedeployRegistersAgain() throws Exception {
        for (int deployment = 0; deployment < 2; deployment++) {
            try (InboundHarness h = new InboundHarness()) {
                h.activate(BrokerMessageListener.class, new Echo(), true, h.spec());
                assertEquals(Set.of(ObjectNames.resourceAdapter(),
                        ObjectNames.activation("Echo@" + InboundHarness.TARGET_QUEUE)), Jmx.registered());
            }
            assertEquals(Set.of(), Jmx.registered());
        }
    }

    @Test
    void anActivationOnADatabaseThatCannotBeReachedStartsAndIsManaged() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setConnectionUrl("jdbc:postgresql://127.0.0.1:1/nowhere?connectTimeout=2");
            FakeEndpointFactory f = h.activate(BrokerMessageListener.class, new Echo(), true, spec);
            assertEquals(1, h.ra.activations().size(), "its readers retry until the database can be reached");
            assertEquals(Set.of(ObjectNames.resourceAdapter(),
                    ObjectNames.activation("Echo@" + InboundHarness.TARGET_QUEUE)), Jmx.registered());
            h.ra.endpointDeactivation(f, spec);
            assertEquals(Set.of(ObjectNames.resourceAdapter()), Jmx.registered());
        }
    }

    @Test
    void anActivationThatFailsToStartLeavesNoMBeanAndNoActivation() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            ServiceBrokerActivationSpec spec = h.spec();
            // A database that cannot be reached no longer fails an activation (its readers retry), so the
            // container refuses the readers' work instead.
            h.context.fakeWorkManager().refuseWork(true);
            assertThrows(ResourceException.class,
                    () -> h.activate(BrokerMessageListener.class, new Echo(), true, spec));
            assertEquals(List.of(), h.ra.activations());
            assertEquals(Set.of(ObjectNames.resourceAdapter()), Jmx.registered());
        }
    }

    @Test
    void passwordsNeverShow() throws Exception {
        ServiceBrokerResourceAdapter ra = new ServiceBrokerResourceAdapter();
        ra.setConnectionUrl("jdbc:h2:mem:mgmt-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1;PASSWORD=s3cret");
        ra.start(new FakeBootstrapContext());
        try {
            ra.registry().get(ra.defaultDatabase());
            ResourceAdapterMXBean mx = JMX.newMXBeanProxy(SERVER, ObjectNames.resourceAdapter(),
                    ResourceAdapterMXBean.class);
            String database = mx.getBackends().get(0).getDatabase();
            assertFalse(database.contains("s3cret"), database);
            assertTrue(database.contains("PASSWORD=***"), database);
            assertFalse(mx.getDefaultDatabase().contains("s3cret"), mx.getDefaultDatabase());
        } finally {
            ra.stop();
        }
    }

    @Test
    void namesThatAnObjectNameCannotHoldBareAreQuoted() throws Exception {
        assertEquals(new ObjectName("org.ssbjca:type=Activation,name=Bean@Queue"),
                ObjectNames.activation("Bean@Queue"));
        ObjectName quoted = ObjectNames.activation("Bean@odd,queue=name");
        assertEquals("\"Bean@odd,queue=name\"", quoted.getKeyProperty("name"));
        assertEquals("Bean@odd,queue=name", ObjectName.unquote(quoted.getKeyProperty("name")));
    }

    /** A bean with a readable simple name. */
    static final class Echo implements BrokerMessageListener {
        @Override
        public void onMessage(BrokerMessage message) {
        }
    }
}
