import type { FastifyPluginAsync } from 'fastify'
import type { ValueList } from '../../domain/decision/types.js'
import { invalidListItem } from '../../domain/rules/lists.js'
import { createList, deleteList, ruleUsingList } from '../../domain/rules/ruleset-edits.js'
import { principalScope, type Principal } from '../../services/auth.js'
import { ApiError, notFound } from '../../services/errors.js'
import { listQuerySchema, paginate, type ListQuery } from '../pagination.js'
import { changeListItem, changeRuleset, type RulesetChangeDeps } from './rules/change.js'
import { DEFAULT_QUOTAS } from '../../domain/records/tenants.js'

export function listResource (list: ValueList, withItems: boolean) {
  return { object: 'value_list', alias: list.alias, item_type: list.item_type, items_count: list.items.length, ...(withItems ? { items: list.items } : {}) }
}

/** Value lists of the ruleset (allow-lists, deny-lists...) and their items. */
export const listRoutes: FastifyPluginAsync<RulesetChangeDeps> = async (app, deps) => {
  const { control } = deps
  app.get<{ Querystring: ListQuery }>('/v1/lists', { config: { scope: 'rules:read' }, schema: { querystring: listQuerySchema } }, async request => {
    const { ruleset } = await control.activeRuleset(request.scope)
    const lists = Object.values(ruleset.lists).sort((a, b) => a.alias < b.alias ? -1 : 1)
    return paginate(lists, l => l.alias, request.query, l => listResource(l, false), '/v1/lists')
  })

  app.get<{ Params: { alias: string } }>('/v1/lists/:alias', { config: { scope: 'rules:read' } }, async request => {
    const list = (await control.activeRuleset(request.scope)).ruleset.lists[request.params.alias]
    if (list === undefined) throw notFound('list', request.params.alias)
    return listResource(list, true)
  })

  app.post<{ Body: { alias: string, item_type: ValueList['item_type'] } }>('/v1/lists', {
    config: { scope: 'rules:write' },
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['alias', 'item_type'],
        properties: {
          alias: { type: 'string', pattern: '^[a-z0-9_]{1,64}$' },
          item_type: { type: 'string', enum: ['user_id', 'email', 'device_id', 'ip', 'country', 'card', 'string'] }
        }
      }
    }
  }, async request => {
    const { alias, item_type: itemType } = request.body
    if ((await control.activeRuleset(request.scope)).ruleset.lists[alias] !== undefined) {
      throw new ApiError('resource_exists', `A list with alias '${alias}' already exists.`, 'alias')
    }
    const created: ValueList = { alias, item_type: itemType, items: [] }
    await changeRuleset(deps, request.caller, request.id, { type: 'list.created', alias }, ruleset => createList(ruleset, created))
    return listResource(created, true)
  })

  app.delete<{ Params: { alias: string } }>('/v1/lists/:alias', { config: { scope: 'rules:write' } }, async request => {
    const { alias } = request.params
    const { ruleset } = await control.activeRuleset(request.scope)
    if (ruleset.lists[alias] === undefined) throw notFound('list', alias)
    // A list an active rule names would silently stop matching: refuse, as the rule must change first.
    const user = ruleUsingList(ruleset, alias)
    if (user !== undefined) throw new ApiError('resource_in_use', `List '${alias}' is used by active rule '${user.id}'.`, 'alias')
    await changeRuleset(deps, request.caller, request.id, { type: 'list.deleted', alias }, current => deleteList(current, alias))
    return { object: 'value_list', alias, deleted: true }
  })

  const changeItems = async (principal: Principal, requestId: string, alias: string, value: string, add: boolean) => {
    const list = (await control.activeRuleset(principalScope(principal))).ruleset.lists[alias]
    if (list === undefined) throw notFound('list', alias)
    const invalid = add ? invalidListItem(list, value) : undefined
    if (invalid !== undefined) throw new ApiError('parameter_invalid', `Invalid value for '${list.item_type}' list: ${invalid}.`, 'value')
    const most = deps.tenants.quotaOf(principal.tenant, 'list_items', DEFAULT_QUOTAS.list_items)
    if (add && list.items.length >= most && !list.items.includes(value)) throw new ApiError('quota_exceeded', `A list of this account holds at most ${most} items.`, 'value')
    if (!await changeListItem(deps, principal, requestId, { alias, value, op: add ? 'add' : 'remove' })) throw notFound('list', alias)
    return listResource((await control.activeRuleset(principalScope(principal))).ruleset.lists[alias] ?? { ...list, items: [] }, true)
  }

  app.post<{ Params: { alias: string }, Body: { value: string } }>('/v1/lists/:alias/items', {
    config: { scope: 'lists:write' },
    schema: { body: { type: 'object', additionalProperties: false, required: ['value'], properties: { value: { type: 'string', minLength: 1, maxLength: 256 } } } }
  }, request => changeItems(request.caller, request.id, request.params.alias, request.body.value, true))
  app.delete<{ Params: { alias: string, value: string } }>('/v1/lists/:alias/items/:value', { config: { scope: 'lists:write' } },
    request => changeItems(request.caller, request.id, request.params.alias, request.params.value, false))
}
