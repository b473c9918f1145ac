package org.ssbjca.console;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

/** Who is logged in, and whether they may act (the page disables its buttons for viewers). */
@Path("me")
@Produces(MediaType.APPLICATION_JSON)
public class MeResource {

    /** The role that may change things; {@code ssb-viewer} may only look. */
    static final String OPERATOR = "ssb-operator";

    /** @return {@code {"user": ..., "operator": true|false}} */
    @GET
    public JsonObject me(@Context SecurityContext security) {
        return Json.createObjectBuilder().add("user", security.getUserPrincipal().getName())
                .add("operator", security.isUserInRole(OPERATOR)).build();
    }
}
