package org.ssbjca.it.invalid;

import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;

/**
 * A message-driven bean whose activation properties all come from the {@code ejb-jar.xml} deployed with it, so that
 * one class serves every bad value {@code InvalidActivationIT} tries.
 */
public class AnyReader implements BrokerMessageListener {

    @Override
    public void onMessage(BrokerMessage message) {
        // never activated
    }
}
