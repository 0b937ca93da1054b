// Generated from clients/openapi.json by clients/generate.ts (openapi-typescript). Do not edit.

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the instance is up (the whole report with the operator’s token) */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the instance is ready to serve (its views caught up) */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/score": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Decide on one event */
        post: operations["scoreEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/score/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Decide on up to 500 events in one durable write */
        post: operations["scoreBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List recent decisions, optionally of one subject */
        get: operations["listTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one decision by its trace id */
        get: operations["getTransaction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the active ruleset’s rules */
        get: operations["listRules"];
        put?: never;
        /** Create a rule, or change one (a new ruleset version) */
        post: operations["saveRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a rule with its history */
        get: operations["getRule"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rules/rollout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List rollouts */
        get: operations["listRollouts"];
        put?: never;
        /** Roll out a pack of rules in shadow for a share of traffic */
        post: operations["startRollout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rules/rollout/{pack}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a rollout and its runs */
        get: operations["getRollout"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rules/rollout/{pack}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop a pack’s running rollout (its rules then run nowhere) */
        post: operations["stopRollout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rules/rollout/{pack}/promote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Promote a pack: its rules decide for every request (enforce) */
        post: operations["promoteRollout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rules/{id}/backtest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Backtest a rule or a draft over stored decisions and labels */
        post: operations["backtestRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rules/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check a rule expression without saving it */
        post: operations["validateRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rules/hits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How often each rule matched in the last hours */
        get: operations["listRuleHits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lists": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List value lists */
        get: operations["listLists"];
        put?: never;
        /** Create a value list */
        post: operations["createList"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lists/{alias}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a value list with its items */
        get: operations["getList"];
        put?: never;
        post?: never;
        /** Delete a value list */
        delete: operations["deleteList"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lists/{alias}/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add an item to a value list */
        post: operations["addListItem"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lists/{alias}/items/{value}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove an item from a value list */
        delete: operations["deleteListItem"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/risk_settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read the score thresholds */
        get: operations["getRiskSettings"];
        put?: never;
        /** Change the score thresholds */
        post: operations["updateRiskSettings"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Decisions, scores and lag over the last minutes */
        get: operations["getOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List cases, filtered and ordered */
        get: operations["listCases"];
        put?: never;
        /** Open a case for a decision or a subject */
        post: operations["createCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Count the open and in-review cases and age the oldest */
        get: operations["getCaseSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a case */
        get: operations["getCase"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{id}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add a note to a case */
        post: operations["addCaseNote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/dispositions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Record one outcome for many cases, each on its own */
        post: operations["disposeCases"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{id}/assign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Assign a case to an analyst */
        post: operations["assignCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cases/{id}/disposition": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Record a case’s outcome (fraud, legitimate, chargeback) */
        post: operations["disposeCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/overrides": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List overrides */
        get: operations["listOverrides"];
        put?: never;
        /** Force the decision for a subject */
        post: operations["createOverride"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/overrides/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an override */
        get: operations["getOverride"];
        put?: never;
        post?: never;
        /** Remove an override */
        delete: operations["deleteOverride"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook endpoints */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /** Create a webhook endpoint (its secret is shown once) */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a webhook endpoint */
        get: operations["getWebhookEndpoint"];
        put?: never;
        /** Change a webhook endpoint */
        post: operations["updateWebhookEndpoint"];
        /** Delete a webhook endpoint */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/rotate_secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate an endpoint’s signing secret (the old one signs for 24 h more) */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List an endpoint’s deliveries */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{delivery}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a delivery with its attempts */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{delivery}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deliver an event again: answers the new delivery (replay_of names this one) */
        post: operations["replayWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deliver several events again: the deliveries named, or the failed ones not replayed yet (up to 100 a call) */
        post: operations["replayWebhookDeliveries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List API keys */
        get: operations["listApiKeys"];
        put?: never;
        /** Create an API key (a secret key is shown once) */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an API key */
        get: operations["getApiKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate an API key */
        post: operations["rotateApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke an API key */
        post: operations["revokeApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What happened under a trace id, or to an object */
        get: operations["listAuditEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mtls/client_ca": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read the tenant’s client CA */
        get: operations["getClientCa"];
        put?: never;
        /** Upload the CA of the tenant’s client certificates */
        post: operations["setClientCa"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/signals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Report a SIM swap or an IP reputation change */
        post: operations["reportSignal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard_users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List dashboard users */
        get: operations["listDashboardUsers"];
        put?: never;
        /** Create a dashboard user with a password */
        post: operations["createDashboardUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dashboard_users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a dashboard user */
        get: operations["getDashboardUser"];
        put?: never;
        /** Change a dashboard user’s name, role or status */
        post: operations["updateDashboardUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "score.async": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** score.async: A deferred check of a decision reported (link analysis found accounts tied to it). */
        post: operations["onScoreAsyncEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "case.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** case.created: A case was opened, for a flagged decision or by an analyst. */
        post: operations["onCaseCreatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "case.dispositioned": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** case.dispositioned: A case was closed with an outcome. */
        post: operations["onCaseDispositionedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "rule.triggered": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** rule.triggered: A rule matched a decision (enforced or in shadow). */
        post: operations["onRuleTriggeredEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "signal.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** signal.updated: A signal changed: a SIM swap, or an IP reputation entry. */
        post: operations["onSignalUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description Liveness: the instance serves; `degraded` while the relay or a consumer keeps failing. */
        Health: {
            /** @enum {string} */
            status: "ok" | "degraded";
        } & {
            [key: string]: unknown;
        };
        /** @description Readiness: `ready` once the control-plane views caught up and no consumer lags past READY_MAX_LAG. */
        Readiness: {
            /** @enum {string} */
            status: "ready" | "not_ready";
            /** @description Why the instance is not ready. Shown only to the operator’s credential (METRICS_TOKEN). */
            reasons?: string[];
            /** @description Records each consumer group is behind. Shown only to the operator’s credential (METRICS_TOKEN). */
            lag?: {
                [key: string]: number;
            };
        };
        /** @description The answer to a score request. */
        Decision: {
            score: number;
            /** @enum {string} */
            risk_level: "low" | "medium" | "high";
            /** @enum {string} */
            action: "approve" | "flag" | "reject";
            signals: string[];
            rules: string[];
            trace_id: string;
            latency_ms: number;
            shadow?: {
                /** @enum {string} */
                action: "approve" | "flag" | "reject";
                rules: string[];
            };
            override_gate?: string;
            /** @description On flag and reject: the smallest change of an actionable input (the amount) that would have made the decision approve; null when none would. */
            counterfactual?: {
                /** @enum {string} */
                action: "approve";
                changes: {
                    /** @enum {string} */
                    field: "amount";
                    from: number;
                    to: number;
                }[];
            } | null;
        };
        /** @description A decision made: the decision as returned, the request it answered, and what it was evaluated with. */
        Transaction: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "transaction";
            /** @description The decision’s trace id. */
            id: string;
            trace_id: string;
            /** @description true in live mode, false in the sandbox (test keys). */
            livemode: boolean;
            /** @description The event time (the request’s event_time, or its arrival), unix seconds. */
            created: number;
            /** @description The request’s event type. */
            event: string;
            /** @description The score request as the service took it (its own keys kept). */
            request: {
                [key: string]: unknown;
            };
            decision: components["schemas"]["Decision"];
            /** @description The deferred checks reported for this decision so far (score.async events); GET /v1/transactions/{id} only. */
            async_checks?: {
                /** @enum {string} */
                check: "link_analysis";
                /** @description 0..1. */
                score: number;
                /** @description Other users sharing one of this event’s identifiers. */
                linked_users: number;
                /** @description Users within two hops through shared identifiers, this one included. */
                cluster_size: number;
                /** @description Other users sharing each kind of identifier. */
                shared: {
                    device: number;
                    email: number;
                    card: number;
                    ip: number;
                };
                patterns: ("shared_device" | "shared_card" | "mule_ring" | "synthetic_identity")[];
            }[];
            evaluation: {
                ruleset_version: string;
                model_version: string;
                /**
                 * @description The action before overrides and Stage 3 gates.
                 * @enum {string}
                 */
                base_action: "approve" | "flag" | "reject";
                /** @description The override or gate that changed the action, if any. */
                override_gate: string | null;
                rule_errors: {
                    id: string;
                    error: string;
                }[];
                /** @description The subject’s bucket (0 to 99.99) in each rollout pack: the pack ran for it when below the pack’s percentage. */
                rollout_buckets: {
                    [key: string]: number;
                };
                /** @description The numeric features the decision saw. */
                features: {
                    [key: string]: number;
                };
            };
        };
        /** @description A page of Transaction objects, in the list's order. */
        TransactionList: {
            /** @enum {string} */
            object: "list";
            /** @description The path this list was read from. */
            url: string;
            /** @description Whether another page follows (pass the last id as starting_after). */
            has_more: boolean;
            data: components["schemas"]["Transaction"][];
        };
        /** @description One item per event of the batch, in order: a decision, or the error of an event that failed validation. */
        BatchResult: {
            /** @enum {string} */
            object: "list";
            url: string;
            data: (components["schemas"]["Decision"] | {
                error: {
                    type: string;
                    code: string;
                    message: string;
                    /** @description Where: events.<index>, or events.<index>.<field>. */
                    param: string;
                };
            })[];
        };
        /** @description One accepted change of a case: opened, assigned, a note, or dispositioned (with its outcome and reason). */
        CaseHistoryEntry: {
            /** @enum {string} */
            type: "opened" | "assigned" | "noted" | "dispositioned";
            /** @description Unix time, seconds. */
            at: number;
            /** @description Who made the change: an API key’s id, a dashboard user, or the rule topology. */
            actor: string;
            /** @description The actor’s name, when it has one (a dashboard user). */
            actor_name?: string;
            assignee?: string;
            /** @enum {string} */
            outcome?: "fraud" | "safe" | "chargeback";
            reason?: string;
            analyst?: string;
            /** @description A note’s text. */
            body?: string;
            /** @description A `safe` outcome: later flags of the case’s subjects are approved until then. */
            demote_until?: number;
        };
        /** @description A note an analyst added to a case (POST /v1/cases/{id}/notes); it is in the case’s history too. */
        CaseNote: {
            id: string;
            body: string;
            /** @description The API key’s id or dashboard user who wrote it. */
            author: string;
            author_name: string | null;
            /** @description Unix time, seconds. */
            created: number;
        };
        /** @description The transaction a case is about, as it was scored: what an analyst triages. */
        CaseTransaction: {
            event: string;
            amount: number | null;
            currency: string | null;
            /** @description custom.merchant_id (or terminal_id), or metadata.merchant_id. */
            merchant: string | null;
            /** @description custom.channel or metadata.channel. */
            channel: string | null;
            location: {
                /** @description ISO 3166 alpha-2, as the request’s geo.country. */
                country: string | null;
                city: string | null;
                lat: number | null;
                lon: number | null;
            } | null;
            /** @enum {string} */
            action: "approve" | "flag" | "reject";
            /** @enum {string} */
            risk_level: "low" | "medium" | "high";
            /** @description What raised the score, strongest first, with what each means. */
            signals: {
                code: string;
                description: string;
            }[];
            /** @description What shadow rules would have done. */
            shadow: {
                /** @enum {string} */
                action: "approve" | "flag" | "reject";
                rules: string[];
            } | null;
            /** @description On flag and reject: the smallest change of an actionable input (the amount) that would have made the decision approve; null when none would. */
            counterfactual: {
                /** @enum {string} */
                action: "approve";
                changes: {
                    /** @enum {string} */
                    field: "amount";
                    from: number;
                    to: number;
                }[];
            } | null;
        };
        /** @description A case of the review queue: opened for a flagged decision or by an analyst, assigned, closed with an outcome. */
        Case: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "case";
            id: string;
            /** @description true in live mode, false in the sandbox (test keys). */
            livemode: boolean;
            /** @description The decision the case is about, if any. */
            trace_id: string | null;
            /** @enum {string} */
            status: "open" | "in_review" | "closed";
            /**
             * @description Set when the case is closed.
             * @enum {string|null}
             */
            outcome: "fraud" | "safe" | "chargeback" | null;
            assignee: string | null;
            reason: string;
            /** @enum {string} */
            opened_by: "rule" | "analyst";
            /** @description The enforced rules that matched the flagged decision. */
            rules: string[];
            /** @description The decision’s score. */
            score: number | null;
            /** @description Who the case is about. */
            subjects: {
                user_id?: string;
                email?: string;
                device_id?: string;
                ip?: string;
                card?: string;
            };
            /** @description The transaction the case is about; null for a case opened on subjects only. */
            transaction?: components["schemas"]["CaseTransaction"] | null;
            /** @description Unix time, seconds. */
            created: number;
            /** @description Unix time, seconds. */
            updated: number;
            /** @description Every accepted change, oldest first (not in lists). */
            history?: components["schemas"]["CaseHistoryEntry"][];
            /** @description The notes, oldest first (not in lists). */
            notes?: components["schemas"]["CaseNote"][];
        };
        /** @description A page of Case objects, in the list's order. */
        CaseList: {
            /** @enum {string} */
            object: "list";
            /** @description The path this list was read from. */
            url: string;
            /** @description Whether another page follows (pass the last id as starting_after). */
            has_more: boolean;
            data: components["schemas"]["Case"][];
        };
        /** @description The review queue at a glance: open and in-review counts and the age of the oldest. */
        CaseSummary: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "case_summary";
            /** @description Whether more than 100,000 cases are open or in review: the figures are those of the oldest 100,000. */
            capped: boolean;
            open: number;
            in_review: number;
            /** @description When the oldest open or in-review case was opened (unix seconds). */
            oldest_unclosed_created: number | null;
            oldest_unclosed_age_seconds: number | null;
            /** @description Who has cases in review, the most first (at most 50). */
            assignees: {
                assignee: string;
                in_review: number;
            }[];
            /** @description Cases in review assigned to the `assignee` asked about. */
            assigned_in_review?: number;
        };
        /** @description The outcome of POST /v1/cases/dispositions: every case given, in order, disposed or with its error. */
        BulkDisposition: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "bulk_disposition";
            disposed: number;
            failed: number;
            data: {
                id: string;
                disposed: boolean;
                case?: components["schemas"]["Case"];
                error?: {
                    type: string;
                    code: string;
                    message: string;
                };
            }[];
        };
        /** @description Where the service sends signed events. */
        WebhookEndpoint: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "webhook_endpoint";
            id: string;
            /** @description true in live mode, false in the sandbox (test keys). */
            livemode: boolean;
            url: string;
            events: ("score.async" | "case.created" | "case.dispositioned" | "rule.triggered" | "signal.updated")[];
            description: string;
            /** @enum {string} */
            status: "enabled" | "disabled";
            disabled_reason: string | null;
            /** @description How the endpoint's newest deliveries (at most 20) went: an endpoint can be enabled and failing. */
            health: {
                /**
                 * @description failing: none of the recent deliveries succeeded and some failed or are being retried; degraded: some succeeded, some did not; healthy: all attempted ones succeeded; idle: none attempted yet (no deliveries, or only waiting ones).
                 * @enum {string}
                 */
                state: "healthy" | "degraded" | "failing" | "idle";
                /** @description How many of the newest deliveries were judged (at most 20). */
                window: number;
                succeeded: number;
                /** @description Dead-lettered: every attempt failed. */
                failed: number;
                /** @description Pending after at least one failed attempt. */
                retrying: number;
                /** @description Pending, not attempted yet (a delivery just made, or a replay just queued). */
                waiting: number;
                /** @description The newest successful attempt among them (unix seconds); null when none succeeded. */
                last_success: number | null;
            };
            /** @description Unix time, seconds. */
            created: number;
            /** @description The signing secret (whsec_...): only in the answer that created or rotated it. */
            secret?: string;
            /** @description After a rotation: until then the previous secret signs too (unix seconds); only in the rotation’s answer. */
            previous_secret_expires?: number;
        };
        /** @description A page of WebhookEndpoint objects, in the list's order. */
        WebhookEndpointList: {
            /** @enum {string} */
            object: "list";
            /** @description The path this list was read from. */
            url: string;
            /** @description Whether another page follows (pass the last id as starting_after). */
            has_more: boolean;
            data: components["schemas"]["WebhookEndpoint"][];
        };
        /** @description One event sent to one endpoint, with every attempt. Lists are newest first. */
        WebhookDelivery: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "webhook_delivery";
            id: string;
            /** @description The endpoint’s id. */
            webhook_endpoint: string;
            event: {
                id: string;
                /** @enum {string} */
                type: "score.async" | "case.created" | "case.dispositioned" | "rule.triggered" | "signal.updated";
            };
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
            attempts_count: number;
            attempts: {
                /** @description Unix time, seconds. */
                at: number;
                status_code: number | null;
                /** @description Why the attempt failed: HTTP <status>, or a category (timeout, connection_refused, tls_error, ...). */
                error: string | null;
                duration_ms: number;
            }[];
            /** @description Why the attempt failed: HTTP <status>, or a category (timeout, connection_refused, tls_error, ...). */
            last_error: string | null;
            /** @description Unix time, seconds. */
            next_attempt: number | null;
            /** @description The delivery this one replays (POST .../replay answers the new delivery, queued: status pending, no attempt yet). */
            replay_of: string | null;
            /** @description Unix time, seconds. */
            created: number;
            /** @description The event as delivered (GET of one delivery only). */
            payload?: {
                [key: string]: unknown;
            };
        };
        /** @description A page of WebhookDelivery objects, in the list's order. */
        WebhookDeliveryList: {
            /** @enum {string} */
            object: "list";
            /** @description The path this list was read from. */
            url: string;
            /** @description Whether another page follows (pass the last id as starting_after). */
            has_more: boolean;
            data: components["schemas"]["WebhookDelivery"][];
        };
        /** @description An API key: what it may do (scopes), and its state. */
        ApiKey: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "api_key";
            id: string;
            name: string;
            /** @description true in live mode, false in the sandbox (test keys). */
            livemode: boolean;
            scopes: ("score:write" | "transactions:read" | "rules:read" | "rules:write" | "lists:write" | "cases:read" | "cases:write" | "webhooks:manage" | "audit:read" | "keys:manage" | "users:manage" | "signals:write")[];
            /** @enum {string} */
            status: "active" | "revoked";
            /** @description The key with all but its last characters hidden. */
            redacted: string | null;
            /** @description Unix time, seconds. */
            created: number;
            /** @description After a rotation, when the old key stops working (unix seconds). */
            expires_at: number | null;
            /** @description The id of the key that replaced this one. */
            rotated_to: string | null;
            /** @description The key itself (sk_test_..., sk_live_...): only in the answer that created or rotated it. */
            secret?: string;
        };
        /** @description A page of ApiKey objects, in the list's order. */
        ApiKeyList: {
            /** @enum {string} */
            object: "list";
            /** @description The path this list was read from. */
            url: string;
            /** @description Whether another page follows (pass the last id as starting_after). */
            has_more: boolean;
            data: components["schemas"]["ApiKey"][];
        };
        /** @description A decision forced for one subject until it expires or is removed. */
        Override: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "override";
            id: string;
            /** @description true in live mode, false in the sandbox (test keys). */
            livemode: boolean;
            /** @enum {string} */
            subject: "user_id" | "email" | "device_id" | "ip" | "card";
            value: string;
            /** @enum {string} */
            action: "approve" | "flag" | "reject";
            reason: string;
            /** @description Unix time, seconds. */
            created: number;
            /** @description Unix seconds; null: until removed. */
            expires_at: number | null;
            /** @description Whether it applies now (not expired). */
            active: boolean;
        };
        /** @description A page of Override objects, in the list's order. */
        OverrideList: {
            /** @enum {string} */
            object: "list";
            /** @description The path this list was read from. */
            url: string;
            /** @description Whether another page follows (pass the last id as starting_after). */
            has_more: boolean;
            data: components["schemas"]["Override"][];
        };
        /** @description A rule as one ruleset version that changed it left it. */
        RuleVersion: {
            ruleset_version: string;
            /** @description Unix seconds. */
            created: number;
            /** @description Who made the change. */
            actor: string;
            /**
             * @description What changed the rule: a save, a rollout that moved it to shadow, or the promotion of its pack to enforce.
             * @enum {string}
             */
            change: "rule.upserted" | "rollout.updated" | "rollout.promoted";
            rule: {
                id: string;
                name: string;
                /** @description A CEL expression over the request and the features (docs/rules.md). */
                expression: string;
                /** @enum {string} */
                action: "approve" | "flag" | "reject";
                /**
                 * @description `enforce` rules decide; `shadow` ones are only reported (decision.shadow).
                 * @enum {string}
                 */
                mode: "enforce" | "shadow";
                /** @description Lower runs first among rules of the same action. */
                priority: number;
                description: string;
                /** @enum {string} */
                status: "active" | "disabled";
            };
        };
        /** @description A rule of the tenant’s active ruleset. */
        Rule: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "rule";
            id: string;
            name: string;
            /** @description A CEL expression over the request and the features (docs/rules.md). */
            expression: string;
            /** @enum {string} */
            action: "approve" | "flag" | "reject";
            /**
             * @description `enforce` rules decide; `shadow` ones are only reported (decision.shadow).
             * @enum {string}
             */
            mode: "enforce" | "shadow";
            /** @description Lower runs first among rules of the same action. */
            priority: number;
            description: string;
            /** @enum {string} */
            status: "active" | "disabled";
            /** @description The ruleset version this view of the rule belongs to. */
            ruleset_version: string;
            /** @description The rule in every ruleset version that changed it, oldest first (GET /v1/rules/{id} only). */
            history?: components["schemas"]["RuleVersion"][];
        };
        /** @description A page of Rule objects, in the list's order. */
        RuleList: {
            /** @enum {string} */
            object: "list";
            /** @description The path this list was read from. */
            url: string;
            /** @description Whether another page follows (pass the last id as starting_after). */
            has_more: boolean;
            data: components["schemas"]["Rule"][];
        };
        /** @description A value list rules read with in_list(alias, value). */
        ValueList: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "value_list";
            alias: string;
            /** @enum {string} */
            item_type: "user_id" | "email" | "device_id" | "ip" | "country" | "card" | "string";
            items_count: number;
            /** @description The values (for `ip`, addresses and CIDR ranges); GET /v1/lists/{alias} only. */
            items?: string[];
        };
        /** @description A page of ValueList objects, in the list's order. */
        ValueListList: {
            /** @enum {string} */
            object: "list";
            /** @description The path this list was read from. */
            url: string;
            /** @description Whether another page follows (pass the last id as starting_after). */
            has_more: boolean;
            data: components["schemas"]["ValueList"][];
        };
        /** @description A pack of rules run in shadow for a share of traffic, until a stop condition, a stop or a promotion ends it. */
        Rollout: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "rollout";
            /** @description This run of the pack. */
            id: string | null;
            pack: string;
            rule_ids: string[];
            /** @description 0..100: the share of subjects the pack runs for. */
            percentage: number;
            /** @enum {string} */
            mode: "shadow";
            /** @enum {string} */
            status: "running" | "stopped";
            stop_conditions: {
                max_hit_rate?: number;
                min_decisions?: number;
                min_precision?: number;
                min_matured_hits?: number;
            } | null;
            /** @description Why and when it stopped: the figures that crossed a condition, or who stopped or promoted it. */
            stopped: {
                /**
                 * @description `hit_rate` or `precision`: a stop condition was crossed (with the figures); `stop_requested`: POST /v1/rules/rollout/{pack}/stop; `promoted`: its rules were made enforce (POST /v1/rules/rollout/{pack}/promote).
                 * @enum {string}
                 */
                reason: "hit_rate" | "precision" | "stop_requested" | "promoted";
                /** @description Unix seconds. */
                at: number;
                /** @description Who stopped or promoted it (`stop_requested`, `promoted`). */
                actor?: string;
                hit_rate?: number;
                precision?: number | null;
                decisions?: number;
                hits?: number;
                matured_hits?: number;
                matured_frauds?: number;
            } | null;
            ruleset_version: string;
        };
        /** @description A page of Rollout objects, in the list's order. */
        RolloutList: {
            /** @enum {string} */
            object: "list";
            /** @description The path this list was read from. */
            url: string;
            /** @description Whether another page follows (pass the last id as starting_after). */
            has_more: boolean;
            data: components["schemas"]["Rollout"][];
        };
        /** @description A person who signs in to the dashboard. */
        DashboardUser: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "dashboard_user";
            id: string;
            email: string;
            name: string;
            /** @enum {string} */
            role: "admin" | "analyst" | "viewer";
            /** @enum {string} */
            status: "active" | "disabled";
            /** @description Unix time, seconds. */
            created: number;
        };
        /** @description A page of DashboardUser objects, in the list's order. */
        DashboardUserList: {
            /** @enum {string} */
            object: "list";
            /** @description The path this list was read from. */
            url: string;
            /** @description Whether another page follows (pass the last id as starting_after). */
            has_more: boolean;
            data: components["schemas"]["DashboardUser"][];
        };
        /** @description A rule (or a draft expression) evaluated over the stored decisions of a time range, with their later case outcomes. */
        Backtest: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "backtest";
            rule_id: string;
            expression: string;
            /** @description Unix time, seconds. */
            from: number;
            /** @description Unix time, seconds. */
            to: number;
            ruleset_version: string;
            /** @description Whether the range held more decisions than a backtest reads (the first ones were evaluated). */
            truncated: boolean;
            evaluated: number;
            matched: number;
            /** @description Decisions on which the expression failed to evaluate. */
            errors: number;
            matched_by_outcome: {
                fraud: number;
                safe: number;
                chargeback: number;
                unlabeled: number;
            };
            matched_by_action: {
                approve: number;
                flag: number;
                reject: number;
            };
            /** @description Up to 20 matching decisions, oldest first. */
            sample_trace_ids: string[];
        };
        /** @description Whether a rule expression compiles within the cost limit; where it does not, the place and the reason. */
        ExpressionCheck: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "expression_check";
            valid: boolean;
            error: {
                message: string;
                line: number;
                column: number;
                /** @enum {string} */
                code: "parameter_invalid" | "expression_too_costly";
            } | null;
            /** @description The expression’s estimated cost in units (docs/rules.md, "Cost"). */
            cost: number | null;
        };
        /** @description How often each rule matched over the last hours, enforced and in shadow, and each rollout pack’s current run, counted from the stored decisions. */
        RuleHits: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "rule_hits";
            /** @description Unix time, seconds. */
            from: number;
            /** @description Unix time, seconds. */
            to: number;
            decisions: number;
            /** @description Whether the window held more decisions than are counted. */
            truncated: boolean;
            /** @description By rule id. */
            hits: {
                [key: string]: {
                    enforce: number;
                    shadow: number;
                };
            };
            /** @description By rollout pack: what its current run did over the window (its hit rate is hits / decisions). */
            packs: {
                [key: string]: {
                    /** @description The pack’s current run. */
                    rollout_id: string | null;
                    /** @description Decisions the run ran for. */
                    decisions: number;
                    /** @description Of those, the ones in which one of its rules matched. */
                    hits: number;
                };
            };
        };
        /** @description The score thresholds of the risk levels, each level’s action, and the model that scores. */
        RiskSettings: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "risk_settings";
            /** @description true in live mode, false in the sandbox (test keys). */
            livemode: boolean;
            thresholds: {
                /** @description A score at or above is medium. */
                medium: number;
                /** @description A score at or above is high. */
                high: number;
            };
            /** @description The action of each risk level. */
            actions: {
                /** @enum {string} */
                low: "approve" | "flag" | "reject";
                /** @enum {string} */
                medium: "approve" | "flag" | "reject";
                /** @enum {string} */
                high: "approve" | "flag" | "reject";
            };
            ruleset_version: string;
            model: {
                version: string;
                trained_labels: number;
                /** @description Unix seconds. */
                trained_through: number | null;
                /** @description When the model in use was restored by a rollback. */
                rolled_back: {
                    /** @description The version rolled back from. */
                    from: string;
                    /** @enum {string} */
                    reason: "score_drift" | "quality";
                } | null;
            };
            challenger: {
                version: string;
                /** @enum {string} */
                status: "promoted" | "shadow" | "rejected";
                /** @description Unix time, seconds. */
                trained_through: number;
                evaluation: {
                    rows: number;
                    frauds: number;
                    champion_ap: number;
                    challenger_ap: number;
                    promoted: boolean;
                } | null;
            } | null;
        };
        /** @description Decisions per minute by action, the score histogram, latency, rule hits, the case backlog, failed webhook deliveries and consumer lag over the last minutes. */
        Overview: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "overview";
            /** @description Unix time, seconds. */
            from: number;
            /** @description Unix time, seconds. */
            to: number;
            truncated: boolean;
            decisions: number;
            per_minute: {
                /** @description The minute’s start, unix seconds. */
                minute: number;
                approve: number;
                flag: number;
                reject: number;
            }[];
            /** @description Ten buckets of 0.1. */
            score_histogram: number[];
            latency_ms: {
                p50: number | null;
                p99: number | null;
            };
            /** @description The top rules’ hits over the window, in twelve buckets. */
            rule_hits: {
                /** @description The length of one bucket. */
                bucket_seconds: number;
                /** @description The rules with the most hits (at most 5). */
                rules: {
                    id: string;
                    hits: number;
                    /** @description Hits per bucket, oldest first. */
                    buckets: number[];
                }[];
            };
            model: {
                version: string;
                trained_labels: number;
                evaluation: {
                    rows: number;
                    frauds: number;
                    champion_ap: number;
                    challenger_ap: number;
                    promoted: boolean;
                } | null;
                /** @description Where measuring quality on matured labels stands: why it is not measured yet, when it is not. */
                quality: {
                    /** @enum {string} */
                    state: "measured" | "no_matured_labels" | "challenger_in_shadow" | "too_few_frauds";
                    /** @description Matured decisions the serving model learned from. */
                    matured_labels: number;
                    /** @description Event time of the latest decision learned from. */
                    matured_through: number | null;
                    /** @description While trees score in shadow: their training horizon. */
                    challenger_trained_through: number | null;
                };
            };
            cases: {
                /** @description Whether more than 100,000 cases are open or in review: the figures are those of the oldest 100,000. */
                capped: boolean;
                open: number;
                in_review: number;
                /** @description When the oldest open or in-review case was opened. */
                oldest_unclosed_created: number | null;
                oldest_unclosed_age_seconds: number | null;
            } | null;
            webhooks: {
                endpoints: number;
                /** @description Dead-lettered deliveries not replayed yet. */
                failed_not_replayed: number;
                /** @description Of them, those created in the last 24 hours. */
                failed_last_24h: number;
                /** @description The figures are floors: an endpoint had more than 1,000 dead letters, or the tenant more than 50 endpoints. */
                capped: boolean;
                /** @description Endpoints whose newest deliveries all fail (failing) or partly fail (degraded), the worst first. */
                troubled: {
                    id: string;
                    url: string;
                    /** @enum {string} */
                    status: "enabled" | "disabled";
                    /** @enum {string} */
                    health: "failing" | "degraded";
                    failed: number;
                    retrying: number;
                }[];
            } | null;
            /** @description Records each consumer group of the instance is behind. */
            lag: {
                [key: string]: number;
            };
        };
        /** @description One change, with who made it and under which request. */
        AuditEntry: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "audit_entry";
            id: string;
            /** @description true in live mode, false in the sandbox (test keys). */
            livemode: boolean;
            /** @description What was done, e.g. rule.upserted, case.disposition, key.rotated. */
            action: string;
            actor: string;
            object_type: string;
            object_id: string;
            /** @description The request that made the change. */
            trace_id: string | null;
            /** @description The decision the change was about, if any. */
            subject_trace_id: string | null;
            /** @description Unix time, seconds. */
            created: number;
            /** @description The change’s parameters. */
            data: {
                [key: string]: unknown;
            };
        };
        /** @description A page of AuditEntry objects, in the list's order. */
        AuditEntryList: {
            /** @enum {string} */
            object: "list";
            /** @description The path this list was read from. */
            url: string;
            /** @description Whether another page follows (pass the last id as starting_after). */
            has_more: boolean;
            data: components["schemas"]["AuditEntry"][];
        };
        /** @description The CA that signs the tenant’s client certificates on the mutual-TLS listener. */
        ClientCa: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "client_ca";
            subject: string;
            fingerprint256: string;
            /** @description As the certificate says it (e.g. "Nov 27 00:00:00 2027 GMT"). */
            valid_to: string;
            /** @description Unix time, seconds. */
            uploaded: number;
            /** @description The listener’s own certificate, to pin. */
            server_certificate_sha256: string | null;
        };
        /** @description A signal change: a SIM swap of a user, or an IP reputation entry. */
        Signal: {
            /**
             * @description The kind of object.
             * @enum {string}
             */
            object: "signal";
            id: string;
            /** @enum {string} */
            type: "sim_swap" | "ip_reputation";
            /** @description true in live mode, false in the sandbox (test keys). */
            livemode: boolean;
            /** @description Unix time, seconds. */
            observed_at: number;
            source: string;
            /** @description sim_swap only. */
            user_id?: string;
            /** @description sim_swap only: 0..1; 0 clears it. */
            confidence?: number;
            /** @description ip_reputation only: an address or CIDR range. */
            ip?: string;
            /** @description ip_reputation only: 0..1; null removes the entry. */
            score?: number | null;
        };
        /** @description What a DELETE removed. */
        Deleted: {
            /** @description The kind of object deleted. */
            object: string;
            id?: string;
            /** @description A value list’s alias. */
            alias?: string;
            /** @enum {boolean} */
            deleted: true;
        };
        /** @description A deferred check of a decision reported (link analysis found accounts tied to it). */
        ScoreAsyncEvent: {
            /** @description evt_...: the same on every retry and replay of the event (de-duplicate by it). */
            id: string;
            /** @enum {string} */
            type: "score.async";
            /** @description Unix time, seconds. */
            created: number;
            /** @description true in live mode, false in the sandbox (test keys). */
            livemode: boolean;
            data: {
                trace_id: string;
                /** @enum {string} */
                check: "link_analysis";
                /** @description 0..1. */
                score: number;
                /** @description Other users sharing one of this event’s identifiers. */
                linked_users: number;
                /** @description Users within two hops through shared identifiers, this one included. */
                cluster_size: number;
                /** @description Other users sharing each kind of identifier. */
                shared: {
                    device: number;
                    email: number;
                    card: number;
                    ip: number;
                };
                patterns: ("shared_device" | "shared_card" | "mule_ring" | "synthetic_identity")[];
            };
        };
        /** @description A case was opened, for a flagged decision or by an analyst. */
        CaseCreatedEvent: {
            /** @description evt_...: the same on every retry and replay of the event (de-duplicate by it). */
            id: string;
            /** @enum {string} */
            type: "case.created";
            /** @description Unix time, seconds. */
            created: number;
            /** @description true in live mode, false in the sandbox (test keys). */
            livemode: boolean;
            data: {
                case_id: string;
                trace_id: string | null;
                /** @enum {string} */
                status: "open";
                /** @enum {string} */
                opened_by: "rule" | "analyst";
                reason: string;
                rules: string[];
                subjects: {
                    user_id?: string;
                    email?: string;
                    device_id?: string;
                    ip?: string;
                    card?: string;
                };
            };
        };
        /** @description A case was closed with an outcome. */
        CaseDispositionedEvent: {
            /** @description evt_...: the same on every retry and replay of the event (de-duplicate by it). */
            id: string;
            /** @enum {string} */
            type: "case.dispositioned";
            /** @description Unix time, seconds. */
            created: number;
            /** @description true in live mode, false in the sandbox (test keys). */
            livemode: boolean;
            data: {
                case_id: string;
                trace_id: string | null;
                /** @enum {string} */
                outcome: "fraud" | "safe" | "chargeback";
                reason?: string;
                analyst?: string;
            };
        };
        /** @description A rule matched a decision (enforced or in shadow). */
        RuleTriggeredEvent: {
            /** @description evt_...: the same on every retry and replay of the event (de-duplicate by it). */
            id: string;
            /** @enum {string} */
            type: "rule.triggered";
            /** @description Unix time, seconds. */
            created: number;
            /** @description true in live mode, false in the sandbox (test keys). */
            livemode: boolean;
            data: {
                trace_id: string;
                rule_id: string;
                /** @enum {string} */
                mode: "enforce" | "shadow";
                /** @enum {string} */
                action: "approve" | "flag" | "reject";
                ruleset_version: string;
            };
        };
        /** @description A signal changed: a SIM swap, or an IP reputation entry. */
        SignalUpdatedEvent: {
            /** @description evt_...: the same on every retry and replay of the event (de-duplicate by it). */
            id: string;
            /** @enum {string} */
            type: "signal.updated";
            /** @description Unix time, seconds. */
            created: number;
            /** @description true in live mode, false in the sandbox (test keys). */
            livemode: boolean;
            data: {
                signal_id: string;
                /** @enum {string} */
                type: "sim_swap" | "ip_reputation";
                /** @description true in live mode, false in the sandbox (test keys). */
                livemode: boolean;
                /** @description Unix time, seconds. */
                observed_at: number;
                source: string;
                user_id?: string;
                confidence?: number;
                ip?: string;
                score?: number | null;
            };
        };
        /** @description Any event a webhook endpoint receives; `type` says which. */
        WebhookEvent: components["schemas"]["ScoreAsyncEvent"] | components["schemas"]["CaseCreatedEvent"] | components["schemas"]["CaseDispositionedEvent"] | components["schemas"]["RuleTriggeredEvent"] | components["schemas"]["SignalUpdatedEvent"];
        /** @description The error envelope of every error response. */
        Error: {
            error: {
                type: string;
                code: string;
                message: string;
                param?: string;
                trace_id: string;
            };
        };
        /** @description Any JSON value whose strings and keys hold no NUL character. */
        PlainJson: unknown;
        /** @description A free-form JSON value: keys of 1 to 128 characters, strings of at most 8192, arrays of at most 100 items, at most 5 levels of objects and arrays, at most 1000 keys in the whole request (these two are checked, not stated by this schema). */
        FreeForm: unknown;
        ScoreRequest: {
            event: string;
            amount?: number;
            currency?: string;
            user_id?: string;
            device_id?: string;
            ip?: string;
            /** Format: email */
            email?: string;
            geo?: {
                [key: string]: components["schemas"]["FreeForm"];
            };
            metadata?: {
                [key: string]: components["schemas"]["FreeForm"];
            };
            event_time?: number;
        } & {
            [key: string]: components["schemas"]["FreeForm"];
        };
        BatchRequest: {
            events: components["schemas"]["PlainJson"][];
        };
        RuleInput: {
            id?: string;
            name?: string;
            expression?: string;
            /** @enum {string} */
            action?: "approve" | "flag" | "reject";
            /** @enum {string} */
            mode?: "enforce" | "shadow";
            priority?: number;
            description?: string;
            /** @enum {string} */
            status?: "active" | "disabled";
        };
        RolloutInput: {
            pack: string;
            rule_ids: string[];
            percentage: number;
            stop_conditions?: {
                max_hit_rate?: number;
                min_decisions?: number;
                min_precision?: number;
                min_matured_hits?: number;
            };
            /** @description Whether rules that decide now (active, enforce) may move to shadow with the pack; without it such a rollout is refused with 409 rollout_demotes_enforced. */
            demote_enforced?: boolean;
        };
        ValueListInput: {
            alias: string;
            /** @enum {string} */
            item_type: "user_id" | "email" | "device_id" | "ip" | "country" | "card" | "string";
        };
        ListItem: {
            value: string;
        };
        CaseInput: {
            trace_id?: string;
            subjects?: {
                user_id?: string;
                email?: string;
                device_id?: string;
                ip?: string;
                card?: string;
            };
            reason?: string;
        } | unknown | unknown;
        CaseNoteInput: {
            /** @description Not blank; no NUL character. */
            body: string;
        };
        BulkDispositionInput: {
            case_ids: string[];
            /** @enum {string} */
            outcome: "fraud" | "safe" | "chargeback";
            analyst: string;
            reason?: string;
            demote_for_hours?: number;
        };
        Disposition: {
            /** @enum {string} */
            outcome: "fraud" | "safe" | "chargeback";
            analyst: string;
            reason?: string;
            demote_for_hours?: number;
        };
        OverrideInput: {
            /** @enum {string} */
            subject: "user_id" | "email" | "device_id" | "ip" | "card";
            value: string;
            /** @enum {string} */
            action: "approve" | "flag" | "reject";
            reason?: string;
            expires_at?: number;
        };
        WebhookEndpointInput: {
            /**
             * Format: uri
             * @description An https:// URL of a public host: loopback, private, link-local, CGNAT, multicast, reserved addresses and local names (localhost, single-label, .internal, ...) are refused (400 parameter_invalid) unless the operator allows them (WEBHOOK_EGRESS_ALLOW).
             */
            url: string;
            events: ("score.async" | "case.created" | "case.dispositioned" | "rule.triggered" | "signal.updated")[];
            description?: string;
        };
        WebhookDeliveriesReplayInput: {
            /** @description Delivery ids of this endpoint, at most 100. Without it: the endpoint's failed deliveries not replayed yet, newest first, at most 100 (has_more: more remain; call again). */
            deliveries?: string[];
        };
        ApiKeyInput: {
            name: string;
            livemode?: boolean;
            scopes?: ("score:write" | "transactions:read" | "rules:read" | "rules:write" | "lists:write" | "cases:read" | "cases:write" | "webhooks:manage" | "audit:read" | "keys:manage" | "users:manage" | "signals:write")[];
        };
    };
    responses: {
        /** @description parameter_missing, parameter_invalid, parameter_unknown, invalid_json, invalid_url, expression_too_costly, evaluation_timeout, malformed_request, batch_too_large, quota_exceeded, invalid_request: invalid request; invalid_url and malformed_request for a request that is not valid HTTP. */
        InvalidRequest: {
            headers: {
                /** @description The request’s trace id (as in the body’s trace_id). */
                "X-Trace-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @constant */
                        type?: "invalid_request_error";
                    };
                };
            };
        };
        /** @description missing_key, invalid_key, key_expired, key_revoked, client_certificate_required, client_certificate_invalid, invalid_credentials, session_required, invalid_setup_token: no valid API key; on the mutual-TLS listener, no valid client certificate. */
        Unauthenticated: {
            headers: {
                /** @description The request’s trace id (as in the body’s trace_id). */
                "X-Trace-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @constant */
                        type?: "authentication_error";
                    };
                };
            };
        };
        /** @description insufficient_scope, live_key_required, mtls_not_configured, csrf_failed, tenant_suspended, operator_required: the key may not do this. */
        Forbidden: {
            headers: {
                /** @description The request’s trace id (as in the body’s trace_id). */
                "X-Trace-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @constant */
                        type?: "permission_error";
                    };
                };
            };
        };
        /** @description resource_missing: no such object (or no such object named in the body, e.g. trace_id). */
        NotFound: {
            headers: {
                /** @description The request’s trace id (as in the body’s trace_id). */
                "X-Trace-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @constant */
                        type?: "invalid_request_error";
                    };
                };
            };
        };
        /** @description method_not_allowed: the path names a route that does not take this method (any method a path item does not list); Allow lists the ones it takes. */
        MethodNotAllowed: {
            headers: {
                /** @description The request’s trace id (as in the body’s trace_id). */
                "X-Trace-Id": string;
                /** @description The methods the path takes, e.g. "GET, HEAD, POST". */
                Allow: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @constant */
                        type?: "invalid_request_error";
                    };
                };
            };
        };
        /** @description request_timeout: the request was not received in time. */
        RequestTimeout: {
            headers: {
                /** @description The request’s trace id (as in the body’s trace_id). */
                "X-Trace-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @constant */
                        type?: "invalid_request_error";
                    };
                };
            };
        };
        /** @description conflict, resource_exists, resource_in_use, rollout_demotes_enforced, key_not_rotatable, endpoint_disabled, event_not_subscribed, case_closed, invalid_transition, case_note_limit, case_history_full, delivery_not_replayable, idempotency_key_in_use: a request with this Idempotency-Key is still running, or the change conflicts with the current state. */
        Conflict: {
            headers: {
                /** @description The request’s trace id (as in the body’s trace_id). */
                "X-Trace-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @constant */
                        type?: "invalid_request_error";
                    };
                };
            };
        };
        /** @description body_too_large, event_too_large: the request body (or one batch event) is larger than the limit. */
        PayloadTooLarge: {
            headers: {
                /** @description The request’s trace id (as in the body’s trace_id). */
                "X-Trace-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @constant */
                        type?: "invalid_request_error";
                    };
                };
            };
        };
        /** @description url_too_long: a path parameter is longer than 100 characters. */
        UriTooLong: {
            headers: {
                /** @description The request’s trace id (as in the body’s trace_id). */
                "X-Trace-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @constant */
                        type?: "invalid_request_error";
                    };
                };
            };
        };
        /** @description unsupported_media_type: send the request body as application/json. */
        UnsupportedMediaType: {
            headers: {
                /** @description The request’s trace id (as in the body’s trace_id). */
                "X-Trace-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @constant */
                        type?: "invalid_request_error";
                    };
                };
            };
        };
        /** @description idempotency_key_mismatch: this Idempotency-Key was used with other parameters. */
        IdempotencyKeyMismatch: {
            headers: {
                /** @description The request’s trace id (as in the body’s trace_id). */
                "X-Trace-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @constant */
                        type?: "invalid_request_error";
                    };
                };
            };
        };
        /** @description rate_limited, login_throttled: too many requests for this API key; retry after Retry-After seconds. */
        RateLimited: {
            headers: {
                /** @description The request’s trace id (as in the body’s trace_id). */
                "X-Trace-Id": string;
                /** @description Seconds until the key may send again. */
                "Retry-After": number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @constant */
                        type?: "rate_limit_error";
                    };
                };
            };
        };
        /** @description headers_too_large: the request headers are larger than the limit (16 KiB). */
        HeadersTooLarge: {
            headers: {
                /** @description The request’s trace id (as in the body’s trace_id). */
                "X-Trace-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @constant */
                        type?: "invalid_request_error";
                    };
                };
            };
        };
        /** @description internal_error: the request was not recorded; retry with the same Idempotency-Key. */
        InternalError: {
            headers: {
                /** @description The request’s trace id (as in the body’s trace_id). */
                "X-Trace-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @constant */
                        type?: "api_error";
                    };
                };
            };
        };
        /** @description not_confirmed, storage_unavailable, rules_worker_busy, cell_unavailable: the change was not confirmed in time (not_confirmed: the event log is unavailable or slow; it may still be applied: read it back, or retry with the same Idempotency-Key), the local store cannot write (storage_unavailable: a full disk; nothing was recorded), the rule workers are all busy (rules_worker_busy), or the tenant’s cell did not answer a forwarded request (cell_unavailable); retry after Retry-After seconds. */
        NotConfirmed: {
            headers: {
                /** @description The request’s trace id (as in the body’s trace_id). */
                "X-Trace-Id": string;
                /** @description Seconds to wait before reading the change back or retrying. */
                "Retry-After": number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    error?: {
                        /** @constant */
                        type?: "api_error";
                    };
                };
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Liveness: the instance serves; `degraded` while the relay or a consumer keeps failing. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Readiness: `ready` once the control-plane views caught up and no consumer lags past READY_MAX_LAG. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description Not ready (see `status`). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    scoreEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScoreRequest"];
            };
        };
        responses: {
            /** @description The answer to a score request. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Decision"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            type: string;
                            code: string;
                            message: string;
                            param?: string;
                            trace_id: string;
                        };
                    };
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error?: {
                            type: string;
                            code: string;
                            message: string;
                            param?: string;
                            trace_id: string;
                        };
                    };
                };
            };
        };
    };
    scoreBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchRequest"];
            };
        };
        responses: {
            /** @description One item per event of the batch, in order: a decision, or the error of an event that failed validation. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchResult"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    listTransactions: {
        parameters: {
            query?: {
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description An object id: the page starts after it (the last id of the page before). */
                starting_after?: string;
                /** @description Only decisions of this user id (exactly as sent). */
                user_id?: string;
                /** @description Only decisions of this email, in any case (Ada@Example.com finds ada@example.com). */
                email?: string;
                /** @description Only decisions of this device id (exactly as sent). */
                device_id?: string;
                /** @description Only decisions from this IPv4 or IPv6 address (an IPv6 address however written: 2001:DB8:0::1 finds 2001:db8::1). */
                ip?: string | unknown | unknown;
                /** @description Only decisions of this card fingerprint (the request’s card_fingerprint, exactly as sent). */
                card?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Transaction objects, in the list's order. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransactionList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    getTransaction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A decision made: the decision as returned, the request it answered, and what it was evaluated with. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    listRules: {
        parameters: {
            query?: {
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description An object id: the page starts after it (the last id of the page before). */
                starting_after?: string;
                mode?: "enforce" | "shadow";
                status?: "active" | "disabled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Rule objects, in the list's order. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    saveRule: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RuleInput"];
            };
        };
        responses: {
            /** @description A rule of the tenant’s active ruleset. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    getRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A rule of the tenant’s active ruleset. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    listRollouts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Rollout objects, in the list's order. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RolloutList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    startRollout: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RolloutInput"];
            };
        };
        responses: {
            /** @description A pack of rules run in shadow for a share of traffic, until a stop condition, a stop or a promotion ends it. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rollout"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    getRollout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pack: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A pack of rules run in shadow for a share of traffic, until a stop condition, a stop or a promotion ends it. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rollout"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    stopRollout: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                pack: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A pack of rules run in shadow for a share of traffic, until a stop condition, a stop or a promotion ends it. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rollout"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    promoteRollout: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                pack: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A pack of rules run in shadow for a share of traffic, until a stop condition, a stop or a promotion ends it. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rollout"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    backtestRule: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    expression?: string;
                    from: number;
                    to: number;
                };
            };
        };
        responses: {
            /** @description A rule (or a draft expression) evaluated over the stored decisions of a time range, with their later case outcomes. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Backtest"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    validateRule: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    expression: string;
                };
            };
        };
        responses: {
            /** @description Whether a rule expression compiles within the cost limit; where it does not, the place and the reason. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExpressionCheck"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    listRuleHits: {
        parameters: {
            query?: {
                /** @description The window, in hours back from now (default 24). */
                hours?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description How often each rule matched over the last hours, enforced and in shadow, and each rollout pack’s current run, counted from the stored decisions. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleHits"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    listLists: {
        parameters: {
            query?: {
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description An object id: the page starts after it (the last id of the page before). */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of ValueList objects, in the list's order. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValueListList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    createList: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ValueListInput"];
            };
        };
        responses: {
            /** @description A value list rules read with in_list(alias, value). */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValueList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    getList: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                alias: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A value list rules read with in_list(alias, value). */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValueList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    deleteList: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                alias: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What a DELETE removed. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    addListItem: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                alias: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ListItem"];
            };
        };
        responses: {
            /** @description A value list rules read with in_list(alias, value). */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValueList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    deleteListItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                alias: string;
                value: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A value list rules read with in_list(alias, value). */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValueList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    getRiskSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The score thresholds of the risk levels, each level’s action, and the model that scores. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RiskSettings"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    updateRiskSettings: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    thresholds?: {
                        medium: number;
                        high: number;
                    };
                    actions?: {
                        /** @enum {string} */
                        low: "approve" | "flag" | "reject";
                        /** @enum {string} */
                        medium: "approve" | "flag" | "reject";
                        /** @enum {string} */
                        high: "approve" | "flag" | "reject";
                    };
                };
            };
        };
        responses: {
            /** @description The score thresholds of the risk levels, each level’s action, and the model that scores. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RiskSettings"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    getOverview: {
        parameters: {
            query?: {
                /** @description The window, in minutes back from now (default 60). */
                minutes?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Decisions per minute by action, the score histogram, latency, rule hits, the case backlog, failed webhook deliveries and consumer lag over the last minutes. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Overview"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    listCases: {
        parameters: {
            query?: {
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description An object id: the page starts after it (the last id of the page before). */
                starting_after?: string;
                status?: "open" | "in_review" | "closed";
                outcome?: "fraud" | "safe" | "chargeback";
                assignee?: string;
                trace_id?: string;
                rule?: string;
                min_score?: number;
                max_score?: number;
                order?: "created" | "score";
                /** @description Only cases about this user. */
                user_id?: string;
                /** @description Only cases about this email. */
                email?: string;
                /** @description Only cases about this device. */
                device_id?: string;
                /** @description Only cases about this ip. */
                ip?: string;
                /** @description Only cases about this card fingerprint. */
                card?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Case objects, in the list's order. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaseList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    createCase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CaseInput"];
            };
        };
        responses: {
            /** @description A case of the review queue: opened for a flagged decision or by an analyst, assigned, closed with an outcome. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Case"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    getCaseSummary: {
        parameters: {
            query?: {
                /** @description Also count the cases in review assigned to this assignee. */
                assignee?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The review queue at a glance: open and in-review counts and the age of the oldest. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaseSummary"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    getCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A case of the review queue: opened for a flagged decision or by an analyst, assigned, closed with an outcome. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Case"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    addCaseNote: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CaseNoteInput"];
            };
        };
        responses: {
            /** @description A case of the review queue: opened for a flagged decision or by an analyst, assigned, closed with an outcome. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Case"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    disposeCases: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkDispositionInput"];
            };
        };
        responses: {
            /** @description The outcome of POST /v1/cases/dispositions: every case given, in order, disposed or with its error. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkDisposition"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    assignCase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    assignee: string;
                };
            };
        };
        responses: {
            /** @description A case of the review queue: opened for a flagged decision or by an analyst, assigned, closed with an outcome. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Case"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    disposeCase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Disposition"];
            };
        };
        responses: {
            /** @description A case of the review queue: opened for a flagged decision or by an analyst, assigned, closed with an outcome. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Case"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    listOverrides: {
        parameters: {
            query?: {
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description An object id: the page starts after it (the last id of the page before). */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of Override objects, in the list's order. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OverrideList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    createOverride: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OverrideInput"];
            };
        };
        responses: {
            /** @description A decision forced for one subject until it expires or is removed. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Override"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    getOverride: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A decision forced for one subject until it expires or is removed. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Override"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    deleteOverride: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What a DELETE removed. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description An object id: the page starts after it (the last id of the page before). */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of WebhookEndpoint objects, in the list's order. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEndpointInput"];
            };
        };
        responses: {
            /** @description Where the service sends signed events. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Where the service sends signed events. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description An https:// URL of a public host: loopback, private, link-local, CGNAT, multicast, reserved addresses and local names (localhost, single-label, .internal, ...) are refused (400 parameter_invalid) unless the operator allows them (WEBHOOK_EGRESS_ALLOW).
                     */
                    url?: string;
                    events?: ("score.async" | "case.created" | "case.dispositioned" | "rule.triggered" | "signal.updated")[];
                    description?: string;
                    /** @enum {string} */
                    status?: "enabled" | "disabled";
                };
            };
        };
        responses: {
            /** @description Where the service sends signed events. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What a DELETE removed. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Where the service sends signed events. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description A delivery id: the page holds the deliveries older than it (the last id of the page before). */
                starting_after?: string;
                /** @description A delivery id: the page holds the deliveries newer than it (the first id of the page after), newest first; has_more then says whether even newer ones exist. With starting_after too: the deliveries between the two, newest first. */
                ending_before?: string;
                status?: "pending" | "succeeded" | "failed";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of WebhookDelivery objects, in the list's order. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                delivery: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One event sent to one endpoint, with every attempt. Lists are newest first. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    replayWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
                delivery: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One event sent to one endpoint, with every attempt. Lists are newest first. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    replayWebhookDeliveries: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["WebhookDeliveriesReplayInput"];
            };
        };
        responses: {
            /** @description A page of WebhookDelivery objects, in the list's order. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description An object id: the page starts after it (the last id of the page before). */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of ApiKey objects, in the list's order. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApiKeyInput"];
            };
        };
        responses: {
            /** @description An API key: what it may do (scopes), and its state. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    getApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An API key: what it may do (scopes), and its state. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    rotateApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An API key: what it may do (scopes), and its state. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An API key: what it may do (scopes), and its state. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    listAuditEntries: {
        parameters: {
            query?: {
                trace_id?: string;
                object_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of AuditEntry objects, in the list's order. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEntryList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    getClientCa: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CA that signs the tenant’s client certificates on the mutual-TLS listener. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientCa"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    setClientCa: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    certificate: string;
                };
            };
        };
        responses: {
            /** @description The CA that signs the tenant’s client certificates on the mutual-TLS listener. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientCa"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    reportSignal: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    type: "sim_swap" | "ip_reputation";
                    user_id?: string;
                    confidence?: number;
                    ip?: string | unknown | unknown | unknown | unknown;
                    score?: number | null;
                    observed_at?: number;
                } & (unknown & unknown);
            };
        };
        responses: {
            /** @description A signal change: a SIM swap of a user, or an IP reputation entry. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Signal"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    listDashboardUsers: {
        parameters: {
            query?: {
                /** @description How many objects to return, 1 to 100 (default 10). */
                limit?: number;
                /** @description An object id: the page starts after it (the last id of the page before). */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of DashboardUser objects, in the list's order. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardUserList"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    createDashboardUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    name: string;
                    /** @enum {string} */
                    role: "admin" | "analyst" | "viewer";
                    password: string;
                };
            };
        };
        responses: {
            /** @description A person who signs in to the dashboard. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardUser"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    getDashboardUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A person who signs in to the dashboard. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardUser"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    updateDashboardUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the first answer (below 500) is replayed for 24 h with Idempotent-Replayed: true. The same key with other parameters is 422 idempotency_key_mismatch; while the first request runs, 409 idempotency_key_in_use. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @enum {string} */
                    role?: "admin" | "analyst" | "viewer";
                    /** @enum {string} */
                    status?: "active" | "disabled";
                };
            };
        };
        responses: {
            /** @description A person who signs in to the dashboard. */
            200: {
                headers: {
                    /** @description The request’s trace id (as in the body’s trace_id). */
                    "X-Trace-Id": string;
                    /** @description Sustained requests per second of this key. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the key’s bucket. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description The unix time (seconds) at which the key’s bucket is full again. */
                    "X-RateLimit-Reset"?: number;
                    /** @description "true" when this is the stored answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardUser"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyMismatch"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["NotConfirmed"];
        };
    };
    onScoreAsyncEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the endpoint’s secret>, one v1 per secret still signing (two during a rotation). Verify it before trusting the body (the client libraries’ verifyWebhook / verify_webhook). */
                "X-Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScoreAsyncEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 5 s acknowledges the event; anything else is retried (410 disables the endpoint). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onCaseCreatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the endpoint’s secret>, one v1 per secret still signing (two during a rotation). Verify it before trusting the body (the client libraries’ verifyWebhook / verify_webhook). */
                "X-Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CaseCreatedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 5 s acknowledges the event; anything else is retried (410 disables the endpoint). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onCaseDispositionedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the endpoint’s secret>, one v1 per secret still signing (two during a rotation). Verify it before trusting the body (the client libraries’ verifyWebhook / verify_webhook). */
                "X-Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CaseDispositionedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 5 s acknowledges the event; anything else is retried (410 disables the endpoint). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onRuleTriggeredEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the endpoint’s secret>, one v1 per secret still signing (two during a rotation). Verify it before trusting the body (the client libraries’ verifyWebhook / verify_webhook). */
                "X-Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RuleTriggeredEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 5 s acknowledges the event; anything else is retried (410 disables the endpoint). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onSignalUpdatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the endpoint’s secret>, one v1 per secret still signing (two during a rotation). Verify it before trusting the body (the client libraries’ verifyWebhook / verify_webhook). */
                "X-Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignalUpdatedEvent"];
            };
        };
        responses: {
            /** @description Any 2xx within 5 s acknowledges the event; anything else is retried (410 disables the endpoint). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
