package org.ssbjca.bench.server;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * The in-WildFly loop's bean ({@link ContainerLoop}): what the benchmark's MDBs do with a message (record the
 * delivery in the caller's transaction), reached through the EJB container as an MDB's {@code onMessage} is, in the
 * transaction the loop began.
 */
@Stateless
public class ContainerTaker {

    @Resource
    private TransactionSynchronizationRegistry registry;

    /** @param body the message's body, as the MDBs read it */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public void taken(String body) {
        Recorder.delivered(registry, 1, body);
    }
}
