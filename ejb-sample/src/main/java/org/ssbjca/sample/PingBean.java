package org.ssbjca.sample;

import jakarta.ejb.Stateless;

/**
 * A placeholder bean that proves the integration-test deployment works; the real sample replaces it.
 */
@Stateless
public class PingBean {

    /**
     * @return always {@code "pong"}
     */
    public String ping() {
        return "pong";
    }
}
