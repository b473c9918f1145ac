package org.ssbjca.it.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.ResourceAdapterArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.ssbjca.it.app.BrokerObjects;
import org.ssbjca.it.support.Deployments;
import org.ssbjca.it.support.IronJacamar;

/**
 * A broker SEND and a second XA resource in one JTA transaction commit together or roll back together. The second
 * resource is the messaging subsystem's XA connection factory {@code java:/JmsXA} of {@code standalone-full.xml}, so
 * the transaction manager runs a two-phase commit over the broker's H2 branch and Artemis.
 */
@ExtendWith(ArquillianExtension.class)
class OutboundXaIT {

    private static final long JMS_WAIT_MILLIS = 30_000;
    private static final long JMS_ABSENT_MILLIS = 2_000;

    @Deployment(name = "rar", order = 1, testable = false)
    static ResourceAdapterArchive rar() {
        return Deployments.rar(IronJacamar.h2InMemory("outbound-xa-it"));
    }

    @Deployment(name = "ejb", order = 2)
    static JavaArchive ejb() {
        return Deployments.ejbJar("outbound-xa-it.jar", OutboundXaIT.class, XaSender.class, XaSender.Outcome.class,
                OutboundItSetup.class, BrokerObjects.class);
    }

    @EJB
    XaSender sender;

    @Test
    @OperateOnDeployment("ejb")
    void bothCommit() {
        String text = "commit:" + UUID.randomUUID();

        sender.sendBoth(text, XaSender.Outcome.COMMIT);

        assertTrue(sender.brokerQueue().contains(text), "the broker message is in its queue");
        assertEquals(text, sender.receiveJms(text, JMS_WAIT_MILLIS), "the JMS message arrived");
    }

    @Test
    @OperateOnDeployment("ejb")
    void bothRollBackWhenTheBeanMarksTheTransactionForRollback() {
        String text = "rollback-only:" + UUID.randomUUID();

        sender.sendBoth(text, XaSender.Outcome.SET_ROLLBACK_ONLY);

        assertNeither(text);
    }

    @Test
    @OperateOnDeployment("ejb")
    void bothRollBackWhenTheBeanThrows() {
        String text = "throw:" + UUID.randomUUID();

        assertThrows(EJBException.class, () -> sender.sendBoth(text, XaSender.Outcome.THROW));

        assertNeither(text);
    }

    @Test
    @OperateOnDeployment("ejb")
    void aBrokerFailureRollsBackTheJmsSendToo() {
        String text = "broker-fails:" + UUID.randomUUID();

        EJBException e = assertThrows(EJBException.class, () -> sender.jmsThenFailingBrokerSend(text));

        assertTrue(String.valueOf(e.getCause()).contains("NoSuchService"), String.valueOf(e.getCause()));
        assertNull(sender.receiveJms(text, JMS_ABSENT_MILLIS), "the JMS message was rolled back");
    }

    private void assertNeither(String text) {
        assertFalse(sender.brokerQueue().contains(text), "the broker message was rolled back");
        assertNull(sender.receiveJms(text, JMS_ABSENT_MILLIS), "the JMS message was rolled back");
    }
}
