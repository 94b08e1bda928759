import type { Catalogue } from './index.js';

/**
 * Nyanja (Chinyanja, as spoken in Lusaka and the East): every key a policyholder or funeral
 * member sees, beside its English in `en.ts`. Plain everyday words; an insurer's term with no
 * common word stays in English with a short gloss the first time a screen needs it. GSM 7-bit
 * characters only (USSD and SMS). See docs/languages.md, "Reviewing a translation".
 */
export const ny: Catalogue = {
  // engine
  'engine.stillWorking': 'Tikugwirabe ntchito pa pempho lanu. Yankhani kuti muone zotsatira.',
  'engine.busy': 'Tikugwirabe ntchito pa pempho lanu lapita. Chonde yesaninso posachedwa.',
  'engine.interrupted': 'Sitepe yanu yapita mwina sinadutse. Chonde yankhaninso.',
  'engine.restarted': 'Pepani, tayambanso kuchokera pachiyambi.',
  'engine.error': 'Pepani, pali vuto kumbali yathu. Chonde yesaninso pambuyo pake.',
  'engine.sessionEnded': 'Kukambirana uku kwatha.',
  'engine.goodbye': 'Zikomo pogwiritsa ntchito utumiki wathu.',
  'engine.checkAgain': 'Onaninso',

  // validation
  'validation.nrc.format': 'Lembani NRC monga 123456/78/9 kapena manambala 9.',
  'validation.nrc.nationality': 'Nambala yomaliza ya NRC iyenera kukhala 1, 2 kapena 3.',
  'validation.phone.format': 'Lembani nambala ya foni ya ku Zambia monga 0971234567.',
  'validation.phone.notMobile': "Imeneyo si nambala ya foni ya m'manja.",
  'validation.phone.notZambian': 'Lembani nambala ya foni ya ku Zambia (+260).',
  'validation.plate.format': 'Lembani nambala ya galimoto, monga AJQ 1909.',
  'validation.date.format': 'Lembani tsiku monga DD/MM/YYYY, mwachitsanzo 05/03/2027.',
  'validation.date.invalid': 'Tsiku limenelo kulibe.',
  'validation.date.notPast': 'Tsiku liyenera kukhala lapita kale.',
  'validation.date.notFuture': "Tsiku liyenera kukhala la m'tsogolo.",
  'validation.date.notTodayOrFuture': "Tsiku liyenera kukhala lero kapena m'tsogolo.",
  'validation.date.notTodayOrPast': 'Tsiku liyenera kukhala lero kapena kale.',
  'validation.date.tooEarly': 'Tsiku liyenera kukhala {min, date} kapena pambuyo pake.',
  'validation.date.tooLate': 'Tsiku liyenera kukhala {max, date} kapena kale.',
  'validation.amount.format': 'Lembani ndalama monga 1500 kapena 1500.50.',
  'validation.amount.notPositive': 'Ndalama iyenera kupitirira 0.',
  'validation.amount.tooManyDecimals':
    'Gwiritsani ntchito manambala awiri okha pambuyo pa kadontho.',
  'validation.amount.tooLarge': 'Ndalama isapitirire {max}.',
  'validation.tooManyTries': 'Mwayesa kambiri. Chonde yambaninso mukakonzeka.',

  // flows: shared
  'flow.choice.retry': 'Yesaninso',
  'flow.choice.back': 'Bwererani',
  'flow.choice.changeAnswer': 'Sinthani yankho',
  'flow.choice.end': 'Malizani',
  'flow.choice.more': 'Zina',
  'flow.choice.yes': 'Inde',
  'flow.choice.no': 'Ayi',
  'flow.failed.timeout': 'Kampani ya inshuwalansi ikuchedwa kuyankha.',
  'flow.failed.unavailable': 'Kampani ya inshuwalansi sikupezeka pakali pano.',
  'flow.failed.rejected': 'Kampani ya inshuwalansi sinavomere zimenezi.',
  'flow.failed.notFound': 'Sitinapeze zimenezo.',
  'flow.failed.denied': 'Utumiki uwu sukupezeka kwa inu pakali pano.',
  'flow.failed.limited': 'Mwapempha kambiri kwambiri.',
  'flow.failed.unknown': 'Pepani, pali vuto.',
  'flow.failed.said': '{said}',
  'flow.failed.check': 'Chonde onani mayankho anu.',
  'flow.field.registrationNumber': 'Chonde onani nambala ya galimoto.',
  'flow.field.vehicleId': 'Chonde onani nambala ya galimotoyo.',
  'flow.field.nrcNumber': 'Chonde onani nambala ya NRC.',
  'flow.field.clientId': 'Chonde onani zambiri za mwini policy.',
  'flow.field.firstName': 'Chonde onani dzina loyamba.',
  'flow.field.lastName': 'Chonde onani dzina la banja.',
  'flow.field.chassisNumber': 'Chonde onani nambala ya chassis.',
  'flow.field.engineNumber': 'Chonde onani nambala ya injini.',
  'flow.field.sumInsured': 'Chonde onani mtengo wa galimoto.',
  'flow.field.startDate': 'Chonde onani tsiku loyambira.',
  'flow.field.lossDate': 'Chonde onani tsiku la kutayika.',
  'flow.field.email': 'Chonde onani imelo.',
  'flow.field.phoneNumber': 'Chonde onani nambala ya foni.',
  'flow.field.idNumber': 'Chonde onani nambala ya NRC.',
  'flow.field.mobileMoneyAccountNumber': 'Chonde onani nambala ya mobile money.',
  'flow.field.destination': 'Chonde onani dziko limene mukupita.',
  'flow.field.endDate': 'Chonde onani masiku a ulendo.',
  'flow.field.name': 'Chonde onani dzina.',
  'flow.field.description': 'Chonde onani zimene zinachitika.',
  'flow.field.partnerLoanReference': 'Chonde onani nambala ya ngongole.',
  'flow.field.claimType': 'Chonde onani zimene zinachitika.',
  'flow.field.make': 'Chonde onani mtundu wa galimoto.',
  'flow.field.model': 'Chonde onani model ya galimoto.',
  'flow.end.mainMenu': 'Menyu yaikulu',
  'flow.end.cancelled': 'Zathetsedwa. Palibe china chachitika. Tsalani bwino.',
  'flow.end.thanks': 'Zikomo. Tsalani bwino.',
  'flow.note.pickFromList': 'Chonde sankhani chimodzi mwa izi.',
  'flow.note.typeAnswer': 'Chonde lembani yankho lanu.',
  'flow.note.stuck':
    'Kapena bwererani (0) kusintha yankho kapena kupita ku menyu. Mayankho anu asungidwa.',
  'flow.note.badName': "Lembani dzina m'malembo, osapitirira {max}.",
  'flow.note.fullName': 'Lembani dzina loyamba ndi la banja, monga Jane Banda.',
  'flow.note.badText': 'Lembani yankho lalifupi (zilembo {max} zokha).',
  'flow.note.badDescription': 'Fotokozani zimene zinachitika (zilembo {max} zokha).',
  'flow.note.badIdentifier': 'Gwiritsani zilembo ndi manambala {max} okha.',
  'flow.note.badMake': 'Lembani dzina la galimoto, monga Toyota.',
  'flow.note.badChassis': 'Lembani nambala ya chassis: zilembo ndi manambala {min} mpaka {max}.',
  'flow.note.badCountry': 'Lembani dziko, monga South Africa.',
  'flow.note.badEmail': 'Lembani imelo monga name@mail.com.',
  'flow.note.badYear': 'Lembani chaka chimene inapangidwa, monga 2018.',
  'flow.note.vehicleName': 'Lembani mtundu, model ndi chaka, monga Toyota Corolla 2015.',

  // flows: payments
  'pay.choice.ownNumber': 'Nambala yanga',
  'pay.choice.otherNumber': 'Nambala ina',
  'pay.choice.card': 'Khadi',
  'pay.choice.check': 'Onani ngati yalipiridwa',
  'pay.choice.tryAgain': 'Lipiraninso',
  'pay.askPhone': 'Nambala ya mobile money yolipirira {currency} {amount}:',
  'pay.waitPhone': 'Vomerezani {currency} {amount} pa foni yanu. Tidzakuuzani ikalipiridwa.',
  'pay.waitConfirming':
    'Malipiro anu a {currency} {amount} akutsimikiziridwa ndi kampani. Tidzakuuzani zotsatira.',
  'pay.waitCard': 'Lipirani {currency} {amount} ndi khadi pa link tatumiza.',
  'pay.released':
    'Vomerezani {currency} {amount} kwa {what} foni yanu ikakufunsani PIN. Tidzakutumizirani SMS ya zotsatira.',
  'pay.waitHandset':
    'Malipiro anu a {currency} {amount} kwa {what} akudikira PIN yanu pa foni. Tidzakutumizirani SMS ya zotsatira.',
  'pay.cardLink': 'Tsamba lolipirira ndi khadi',
  'pay.note.stillPending': 'Tikudikirabe kuyambira {since}. Tidzakuuzani kampani ikangovomereza.',
  'pay.failed': 'Kulipira {currency} {amount} kwa {what} sikunadutse. Palibe ndalama yatengedwa.',
  'pay.note.itemPending': 'Malipiro a {item} akutsimikiziridwabe. Tidzakuuzani zotsatira.',
  'pay.note.reason': 'Chifukwa: {reason}.',
  'pay.sms.cardLink': 'Lipirani {currency} {amount} ndi khadi: {url}',

  // main-menu
  'menu.policyholder': 'Takulandirani. Mufuna chiyani?',
  'menu.funeral-member': 'Takulandirani. Mufuna chiyani?',
  'menu.choice.motor': 'Galimoto',
  'menu.choice.travel': 'Ulendo',
  'menu.choice.policies': 'Inshuwalansi yanga',
  // The claims screen glosses the word: the menu has no room for it.
  'menu.choice.claim': 'Ma claim',
  'menu.choice.household': 'Onani inshuwalansi ya banja',
  'menu.choice.person': 'Lankhulani ndi munthu',
  'menu.choice.renew': 'Konzanso {policyNumber}',
  'menu.choice.renewList': 'Konzanso inshuwalansi ({count} yatha)',
  // The same entries on USSD, shorter, so the menu keeps to one page (flows/main-menu.ts).
  'menu.ussd.motor': 'Galimoto',
  'menu.ussd.travel': 'Ulendo',
  'menu.ussd.renewList': 'Konzanso ({count} yatha)',
  'menu.renewals': 'Mufuna kukonzanso iti?',
  'menu.choice.renewal': '{policyNumber} (itha {endDate, date, short})',
  'menu.choice.remindersOff': 'Imitsani zokumbutsa',
  'menu.remindersOff':
    'Zokumbutsa zaimitsidwa. Mutha kukonzanso kuchokera mu menyu iyi, ndi kuziyatsanso pomwepo.',
  'menu.choice.remindersOn': 'Yatsani zokumbutsa',
  'menu.remindersOn': 'Zokumbutsa zayambanso. Tidzakukumbutsani inshuwalansi yanu isanathe.',
  'menu.note.remindersNotChanged': 'Pepani, sitinathe kusintha zokumbutsa. Yesaninso pambuyo pake.',

  // motor-quote
  'motor.mode': 'Inshuwalansi ya galimoto:',
  'motor.choice.new': 'Inshuwalansi yatsopano',
  'motor.choice.renew': 'Konzanso policy yanga',
  'motor.choice.otherPlate': 'Nambala ina',
  'motor.pickProduct': 'Sankhani inshuwalansi:',
  'motor.noProducts': 'Palibe inshuwalansi ya galimoto pakali pano.',
  'motor.askPlate': 'Nambala ya galimoto:',
  'motor.confirmVehicle': 'Kodi {plate} ndi {vehicle} yanu?',
  'motor.askVehicle': 'Mtundu, model ndi chaka cha galimoto (monga Toyota Corolla 2015):',
  'motor.pickCategory': 'Galimoto imagwira ntchito yanji:',
  'motor.askChassis': 'Nambala ya chassis:',
  'motor.askEngine': 'Nambala ya injini:',
  'motor.askSumInsured': 'Mtengo wa galimoto mu ZMW (wolipidwa ngati yawonongeka):',
  'motor.pickDuration': 'Sankhani nthawi:',
  'motor.noPricing': 'Palibe mtengo wa galimoto iyi.',
  'motor.durationOption': '{label} {currency} {gross}',
  'motor.askHolderPhone': 'Nambala ya foni ya mwini policy:',
  'motor.confirmHolder': 'Mwini policy: {name}. Ndi zolondola?',
  'motor.askHolderNrc': 'Nambala ya NRC ya mwini policy:',
  'motor.askName': 'Dzina loyamba ndi la banja la mwini policy (monga Jane Banda):',
  'motor.askEmail': 'Imelo ya mwini policy:',
  'motor.confirmQuote':
    '{product} {plate}, {startDate, date}-{endDate, date}: {currency} {amount} (premium {basic} + levy {levy}). Lipirani ndi:',
  'motor.confirmQuote.undated':
    '{product} {plate}, {label}: {currency} {amount} (premium {basic} + levy {levy}). Lipirani ndi:',
  'motor.askRenewPlate': 'Nambala ya galimoto yokonzanso:',
  'motor.noPolicy': 'Palibe policy ya galimoto ya {plate}.',
  'motor.confirmRenewal':
    'Konzanso {policyNumber} {startDate, date} mpaka {endDate, date}: {currency} {amount}. Lipirani ndi:',
  'motor.done':
    'Mwalipira {currency} {amount}. {what}, {startDate, date} mpaka {endDate, date}. Nambala ya policy: {policyNumber}.',
  'motor.renewed':
    'Mwalipira {currency} {amount}. Policy {policyNumber} yakonzedwanso, {startDate, date} mpaka {endDate, date}.',
  'motor.certificate': 'Satifiketi ya inshuwalansi',
  // one-time code that proves a typed NRC (issue 35), and the pay step
  'motor.offerCode': 'NRC iyi yalembedwa ndi foni ina.',
  'motor.choice.sendCode': 'Tumizani code ku foni yolembedwa ({phone})',
  'motor.choice.newHolder': 'Pitirizani ngati mwini watsopano wa polisi iyi yokha',
  'motor.askCode': 'Code yotumizidwa ku {phone}:',
  'motor.note.codeSent':
    'Tatumiza code pa SMS. Ngati simungaiwerenge pano, imbani kachiwiri ndi kuilemba.',
  'motor.note.codeWrong': 'Code imeneyo ndi yolakwika. Mwatsala ndi mayesero: {left}.',
  'motor.note.codeFormat': 'Code ndi manambala 6.',
  'motor.code.spent': 'Code inali yolakwika katatu. Palibe code ina ya NRC iyi kwa kanthawi.',
  'motor.code.expired': 'Code yatha kapena yagwiritsidwa ntchito kale.',
  'motor.code.unsent': 'Sitingatumize code ya NRC iyi pano. Yesaninso pambuyo pake.',
  'motor.choice.newCode': 'Tumizani code yatsopano',
  'motor.sms.code':
    'Code yanu ya insurechat: {code}. Imalola foni kugwiritsa ntchito NRC yanu pa inshuwalansi ya galimoto, kwa mphindi 10. Musaipatse aliyense; ngati simunaipemphe, inyalanyazeni.',
  'motor.confirmRepriced': 'Mtengo tsopano ndi {currency} {amount}. Lipirani ndi:',
  'motor.alreadyInsured': '{plate} ili kale ndi inshuwalansi mpaka {until, date}.',
  'motor.paymentUnsettled': 'Malipiro anu a {plate} akutsimikiziridwabe. Tidzakuuzani zotsatira.',
  'motor.plateBlocked':
    'Kampani ili ndi {plate} pa kasitomala wina wopanda inshuwalansi, choncho siingalembedwe pano. Munthu angakuthandizeni.',

  // renewal reminders
  'reminder.notice':
    'Tidzakukumbutsani isanathe. Kuti muimitse, sankhani Imitsani zokumbutsa mu menyu.',
  'reminder.motor':
    'Inshuwalansi ya galimoto {policyNumber} ({what}) itha pa {endDate, date}. Konzanso tsopano.',
  'reminder.motorSms':
    'Inshuwalansi ya galimoto {policyNumber} ({what}) itha pa {endDate, date}. Kuti mukonzenso, imbani {serviceCode} ndi kusankha Konzanso {policyNumber}. Yankhani STOP kuimitsa zokumbutsa.',
  'reminder.choice.renew': 'Konzanso tsopano',
  'reminder.smsNotice':
    'Tidzakukumbutsani pa SMS {policyNumber} isanathe, kuti mukonzenso nthawi yake. Yankhani STOP kuimitsa.',
  'reminder.stopped': 'Zokumbutsa zaimitsidwa. Yankhani START kuziyatsanso.',
  'reminder.started': 'Zokumbutsa zayatsidwa. Yankhani STOP kuziimitsa.',

  // travel-issue
  'travel.loading': 'Tikutenga inshuwalansi ya ulendo...',
  'travel.noPackages': 'Palibe inshuwalansi ya ulendo pakali pano. Yesaninso pambuyo pake.',
  'travel.pickPackage':
    'Inshuwalansi ya {travellers, plural, one {munthu # woyenda} other {anthu # oyenda}}. Sankhani:',
  'travel.askDestination': 'Dziko limene mukupita:',
  'travel.askStartDate': 'Tsiku loyamba ulendo (DD/MM/YYYY):',
  'travel.askName': 'Dzina lanu lonse:',
  'travel.askNrc': 'Nambala ya NRC yanu:',
  'travel.travellers': 'Oyenda mpaka pano: {count}.',
  'travel.choice.addTraveller': 'Onjezani woyenda',
  'travel.choice.continue': 'Pitirizani',
  'travel.askTravellerName': 'Dzina lonse la woyenda:',
  'travel.askRelationship': 'Ndi wanu wotani:',
  'travel.relationship.spouse': 'Mkazi kapena mwamuna',
  'travel.relationship.child': 'Mwana',
  'travel.relationship.parent': 'Kholo',
  'travel.relationship.other': 'Wina',
  'travel.askDays': 'Ulendo ndi wa masiku angati?',
  'travel.note.badDays': 'Lembani masiku, kuyambira 1 mpaka {max}.',
  'travel.confirmQuote':
    '{what}, {startDate, date} mpaka {endDate, date}, {travellers, plural, one {munthu #} other {anthu #}}: {currency} {amount}. Lipirani ndi:',
  'travel.done':
    'Mwalipira {currency} {amount}. {what}, {startDate, date} mpaka {endDate, date}. Policy {policyNumber}.',
  'travel.certificate': 'Satifiketi ya ulendo',

  // claim-intimation
  'claim.start': 'Ma claim (kupempha malipiro):',
  'claim.choice.creditLife': 'Inshuwalansi ya ngongole',
  'claim.choice.groupLife': 'Imfa ya membala wa gulu',
  'claim.choice.track': 'Tsatirani ma claim anga',
  'claim.choice.submit': 'Tumizani claim',
  'claim.choice.attach': 'Onjezani zikalata',
  'claim.choice.later': 'Pambuyo pake',
  'claim.choice.more': 'Onjezani china',
  'claim.askPolicy': 'Nambala ya policy (monga CL-DEMO-000001):',
  'claim.askPolicy.group-life': 'Nambala ya policy ya gulu (monga GL-DEMO-000001):',
  'claim.pickType': 'Chinachitika ndi chiyani kwa wobwereka?',
  'claim.ask.partnerLoanReference': 'Nambala ya ngongole yanu:',
  'claim.ask.nrcNumber': 'Nambala ya NRC ya membala:',
  'claim.askDate.credit-life': 'Tsiku la kutayika (DD/MM/YYYY):',
  'claim.askDate.group-life': 'Tsiku la imfa (DD/MM/YYYY):',
  'claim.askDetails': 'Chinachitika ndi chiyani?',
  'claim.confirm.credit-life':
    'Claim ya {claimType} pa ngongole {subject}, kutayika pa {eventDate, date}.',
  'claim.confirm.group-life': 'Claim ya imfa ya {subject} pa {eventDate, date}.',
  'claim.intimated': 'Claim {number}: {status}. Zikalata zofunika: {documents}.',
  'claim.intimated.payable':
    'Claim {number}: {status}. Ngati claim yavomerezedwa, inshuwalansi idzalipira {currency} {payable}. Zikalata zofunika: {documents}.',
  'claim.askDocument': 'Tumizani chithunzi kapena fayilo ya claim {number} ({count} zatumizidwa).',
  'claim.documented': 'Claim {number}: {status}. Zikalata: {count}.',
  'claim.trackLine': 'Ma claim ati?',
  'claim.choice.held': 'Claim pa inshuwalansi yanga',
  'claim.choice.other': 'Policy ina',
  'claim.choice.byNumber': 'Ndi nambala ya claim',
  'claim.choice.anotherNumber': 'Nambala ya claim ina',
  'claim.choice.again': 'Yesani nambala ina',
  'claim.held': 'Claim ndi ya ngongole kapena umembala uti?',
  'claim.held.none': 'Sitinapeze ngongole kapena umembala wa nambala ya foni yanu.',
  'claim.held.credit-life': 'Ngongole {number} ({covers})',
  'claim.held.group-life': 'Moyo wa gulu {number} ({covers})',
  'claim.askNumber': 'Lembani nambala ya claim imene munapatsidwa (monga CLC-000001):',
  'claim.notFound': 'Palibe claim {number}.',
  'claim.list': 'Ma claim anu ({count}):',
  'claim.line': '{number} {status}',
  'claim.list.empty': 'Mulibe ma claim.',
  'claim.detail':
    'Claim {number}: {status}. Ngati claim yavomerezedwa, inshuwalansi idzalipira {currency} {payable}.',
  'claim.end': 'Claim {number}: {status}. Tsalani bwino.',

  // cover-status
  'cover.askContact':
    'Dinani "Gawani nambala yanga ya foni" kuti muone inshuwalansi yanu, kapena lembani nambala ya NRC kuti mufufuze.',
  'cover.askNrc': 'Lembani nambala ya NRC:',
  'cover.list': 'Inshuwalansi yanu ({count}):',
  'cover.none': 'Palibe inshuwalansi ya NRC iyi.',
  'cover.mine.none': 'Palibe ma policy a nambala ya foni yanu.',
  'cover.line.motor': 'Galimoto {number} {status}',
  'cover.line.travel': 'Ulendo {number} {status}',
  'cover.line.life': 'Moyo {number} {status}',
  'cover.line.funeral': 'Maliro {number} {status}',
  'cover.line.groupLife': 'Moyo wa gulu {number} {status}',
  'cover.line.creditLife': 'Ngongole {number} {status}',
  'cover.detail.motor':
    'Galimoto {number}: {status}, {startDate, date} mpaka {endDate, date}. Galimoto {covers}. Premium {currency} {amount}.',
  'cover.detail.travel':
    'Ulendo {number}: {status}, {startDate, date} mpaka {endDate, date}. {covers}. Premium {currency} {amount}.',
  'cover.detail.life':
    'Moyo {number}: {status}, {startDate, date} mpaka {endDate, date}. Premium {currency} {amount}.',
  'cover.detail.funeral':
    'Maliro {number}: {status}, {startDate, date} mpaka {endDate, date}. Banja la {covers}. Premium {currency} {amount}.',
  'cover.detail.group-life':
    'Moyo wa gulu {number}: {status}, {startDate, date} mpaka {endDate, date}. Membala {covers}. Inshuwalansi {currency} {amount}.',
  'cover.detail.credit-life':
    'Ngongole {number}: {status}, {startDate, date} mpaka {endDate, date}. Policy {covers}. Ndalama {currency} {amount}.',
  'cover.note.until': 'Muli ndi inshuwalansi mpaka {until, date}.',
  'cover.note.freeCoverLimit':
    'Inshuwalansi yoposa {currency} {limit} ikufunika kuunikidwa: mpaka pamenepo siilipidwa.',
  'cover.note.shareContact': 'Dinani "Gawani nambala yanga ya foni", kapena lembani NRC.',
  'cover.limited.covered':
    'NRC iyi ili ndi inshuwalansi mpaka {until, date}. Zambiri zimapita ku foni yolembedwa yokha.',
  'cover.limited.none': 'Palibe inshuwalansi yogwira ntchito ya NRC iyi.',
  'cover.limited.unknown': 'Sitinathe kutsimikiza inshuwalansi ya NRC iyi pakali pano.',
  'cover.unknown':
    'Sitingathe kuona inshuwalansi yanu pakali pano - yesaninso pakapita mphindi zochepa.',
  'cover.certificate': 'Satifiketi',
  'cover.certificate.ready': 'Satifiketi ya {number}:',
  'cover.certificate.sms': 'Satifiketi ya {number} yatumizidwa kwa inu pa SMS.',
  'cover.sms.certificate': 'Satifiketi yanu ya {number}:',
  'cover.sms.details': 'Inshuwalansi yanu:',
  'cover.sms.holding': '{line} {number}: {status}, {startDate, date} mpaka {endDate, date}{covers}',
  'cover.sms.holdingUntil':
    '{line} {number}: {status}, {startDate, date} mpaka {endDate, date}{covers}',
  'cover.sms.sent': 'Zambiri zatumizidwa pa SMS ku foni yolembedwa.',
  'cover.choice.another': 'NRC ina',
  'cover.choice.byNrc': 'Fufuzani ndi NRC',
  'cover.choice.list': 'Bwererani ku mndandanda',
  'cover.choice.certificate': 'Satifiketi',
  'cover.choice.sms': 'Tumizani zambiri pa SMS',

  // payments: outcome notices (one SMS each)
  'payment.outcome.paid':
    'Malipiro {reference} alandiridwa. Nambala ya policy yanu ndi {policyNumber}.',
  'payment.outcome.paidWithoutPolicy':
    'Malipiro {reference} alandiridwa. Policy yanu ikukonzedwa; bwererani kuti muone nambala yake.',
  'payment.outcome.failed':
    'Malipiro {reference} sanadutse. Palibe ndalama yatengedwa. Bwererani kuti muyesenso.',
  'payment.outcome.pending':
    'Malipiro {reference} akudikirabe. Mukavomereza, bwererani kuti muonenso.',

  // whatsapp
  'whatsapp.choose': 'Sankhani',
  'whatsapp.word.menu': 'menyu, yambani',
  'whatsapp.word.cancel': 'leka, lekani',
  'whatsapp.word.done': 'ndatha',
  'whatsapp.unsupported':
    'Pepani, WhatsApp sinathe kunditumizira uthengawo. Chonde lembani yankho lanu kapena dinani batani.',

  // telegram
  'telegram.shareContact': 'Gawani nambala yanga ya foni',
  'telegram.shareContactBelow':
    'Dinani "Gawani nambala yanga ya foni" pansipa kuti mugawe nambala ya Telegram iyi.',
  'telegram.notYourContact':
    'Imeneyo si nambala yanu. Dinani "Gawani nambala yanga ya foni" kuti mugawe nambala ya Telegram iyi.',
  'telegram.help':
    'Ndingakupatseni mtengo ndi kugulitsa inshuwalansi ya galimoto ndi ya ulendo, kulandira ma claim ndi kuona inshuwalansi yanu.\n/start - menyu yaikulu\n/cancel - lekani zimene mukuchita\n/status - onani inshuwalansi yanu\n/language - sinthani chiyankhulo\n/help - uthenga uwu',
  'chat.filesUnavailable': 'Pepani, sindingalandire mafayilo pano. Yesaninso pambuyo pake.',
  'telegram.menuExpired': 'Menyu imeneyo yatha. Tili apa:',
  'chat.unsupported': 'Pepani, sindingagwiritse ntchito ma sticker, mawu kapena malo.',
  'chat.unexpectedFile': 'Sindikufuna chithunzi kapena fayilo pa sitepe iyi.',
  'telegram.expect.text': 'Chonde lembani yankho lanu.',
  'telegram.expect.nrc': 'Chonde lembani nambala ya NRC, monga 123456/10/1.',
  'telegram.expect.phone':
    'Chonde lembani nambala ya foni, kapena dinani Gawani nambala yanga ya foni.',
  'telegram.expect.date': 'Chonde lembani tsiku, monga 25/12/2026.',
  'telegram.expect.amount': 'Chonde lembani ndalama mu manambala.',
  'telegram.expect.choice': 'Chonde dinani limodzi la mabatani.',
  'telegram.expect.contact': 'Chonde dinani Gawani nambala yanga ya foni, kapena lembani nambala.',
  'telegram.expect.photo': 'Chonde tumizani chithunzi kapena fayilo.',
  'telegram.expect.none': 'Tumizani /start kuti muone menyu yaikulu.',
  'telegram.expect.start': 'Tumizani /start kuti muyambe.',
  'telegram.command.start': 'Menyu yaikulu',
  'telegram.command.help': 'Zimene ndingachite',
  'telegram.command.cancel': 'Lekani zimene mukuchita',
  'telegram.command.status': 'Onani ma policy ndi inshuwalansi yanu',
  'telegram.command.human': 'Lankhulani ndi munthu',
  'telegram.command.language': 'Sinthani chiyankhulo',

  // ussd
  'sms.continueHint': 'Kuti mupitirize, imbani {serviceCode} ndi kusankha Pitirizani.',
  'ussd.more': 'Zina',
  'ussd.back': 'Bwererani',
  'ussd.resumeTitle': 'Muli ndi zimene simunamalize.',
  // What is unfinished, under ussd.resumeTitle on the resume offer (flows/unfinished.ts).
  'resume.motor': 'Kugula inshuwalansi ya galimoto.',
  'resume.motorFor': 'Kugula inshuwalansi ya galimoto {plate}.',
  'resume.travel': 'Kugula inshuwalansi ya ulendo.',
  'resume.travelTo': 'Kugula inshuwalansi ya ulendo wopita ku {destination}.',
  'resume.claim': 'Kulemba claim.',
  'resume.claimFor': 'Kulemba claim ya {label}.',
  'ussd.resumeContinue': 'Pitirizani',
  'ussd.resumeRestart': 'Yambaninso',
  'ussd.useMyNumber': 'Gwiritsani nambala iyi',
  'ussd.stillWorking':
    'Tikugwirabe ntchito. Tidzakutumizirani SMS ikatha. Imbaninso kuti mupitirize.',
  'ussd.sorry': 'Pepani, pali vuto kumbali yathu. Chonde imbaninso posachedwa.',

  // handoff (the customer's side)
  'handoff.opened':
    'Tsopano mukulankhula ndi munthu wa kampani ya inshuwalansi. Lembani uthenga wanu pano ndipo adzayankha pano. Tumizani /done kubwerera komwe munali.',
  'handoff.already':
    'Munthu ali ndi pempho lanu ndipo adzayankha pano. Tumizani /done kubwerera komwe munali.',
  'handoff.unavailable': 'Pepani, palibe munthu pakali pano.',
  'handoff.failed': 'Pepani, sitinapeze munthu pakali pano. Yesaninso pambuyo pake.',
  'handoff.forwardFailed': 'Pepani, uthenga wanu sunafike kwa munthuyo. Tumizaninso posachedwa.',
  'handoff.staffReply': 'Kuchokera ku kampani: {text}',
  'handoff.staffFile': 'Kuchokera ku kampani: fayilo yanu.',
  'handoff.staffFileLabel': 'Fayilo kuchokera ku kampani',
  'handoff.fileTooLarge': 'Pepani, fayilo iyi ndi yoposa 20 MB ndipo sinafike kwa munthu.',
  'handoff.reopened':
    'Munthu wa kampani alinso ndi zokambirana zanu. Lembani pano ndipo adzayankha. Tumizani /done kuti mubwerere komwe munali.',
  'handoff.reopenedSms': 'Munthu wa kampani alinso ndi pempho lanu ndipo adzayankha pa SMS.',
  'handoff.resolved': 'Munthuyo wamaliza kukuthandizani. Munali apa:',
  'handoff.resolvedFresh': 'Munthuyo wamaliza kukuthandizani. Tumizani /start kuti muone menyu.',
  'handoff.back': 'Mwabwerera kwa wothandiza. Munali apa:',
  'handoff.notOpen': 'Simukulankhula ndi munthu. Muli apa:',
  'handoff.resolvedSms': 'Munthuyo wamaliza kukuthandizani. Imbani {serviceCode} kuti mupitirize.',
  'handoff.ussd.waiting':
    'Munthu ali ndi pempho lanu ndipo adzakuyankhani pa SMS. Kuti mumulembere, lembani uthenga wanu.',
  'handoff.ussd.sent': 'Zatumizidwa. Munthuyo adzakuyankhani pa SMS.',
  'handoff.ussd.notSent': 'Pepani, uthenga wanu sunafike. Tumizaninso.',
  'handoff.ussd.end': 'Malizani ndi kupitiriza',
  'handoff.consent':
    'Munthu wa kampani ya inshuwalansi adzawerenga zimene mulemba ndi kuona zithunzi zimene mutumiza mu Slack, NRC ndi nambala ya foni zobisika; zosungidwa masiku 7. Mukuvomera?',
  'handoff.choice.agree': 'Ndavomera, lankhulani ndi munthu',
  'handoff.choice.decline': 'Ayi',
  'handoff.declined': 'Palibe chimene chatumizidwa kwa munthu.',

  // language
  'language.pick': 'Language / Ululimi / Chiyankhulo:',
  'language.changed': 'Chiyankhulo chanu tsopano ndi Chinyanja.',
  'menu.choice.language': 'Chiyankhulo',
  // one access rule (issue 23): cover held by another phone, claims already open
  'motor.heldElsewhere.new':
    '{plate} yalembedwa kwa mwini wina. Foni yolembedwa yokha ndi imene ingayiikire inshuwalansi pano.',
  'motor.heldElsewhere.renew':
    '{plate} ili ndi inshuwalansi ya mwini wina. Foni yolembedwa ya policy yokha ndi imene ingayikonzenso.',
  'motor.heldElsewhere.new.contact':
    '{plate} yalembedwa kwa mwini. Ngati ndi yanu, gawani nambala ya foni yanu; apo ayi:',
  'motor.heldElsewhere.renew.contact':
    '{plate} ili ndi inshuwalansi ya mwini. Ngati ndi yanu, gawani nambala ya foni yanu; apo ayi:',
  'motor.choice.tellHolder': 'Tumizani SMS kwa mwini',
  'motor.note.holderTold': 'Tatumiza SMS kwa mwini.',
  'motor.sms.asked.new':
    'Wina wapempha inshuwalansi ya {plate} pa insurechat. Ngati ndinu, tiimbireni kuchokera pa foni iyi.',
  'motor.sms.asked.renew':
    'Wina wapempha kukonzanso inshuwalansi ya {plate} pa insurechat. Ngati ndinu, tiimbireni kuchokera pa foni iyi.',
  'claim.detail.noPayable': 'Claim {number}: {status}.',
  'claim.detail.status':
    'Claim {number}: {status}. Zambiri zake zimapita ku foni yolembedwa ya membala kapena ngongole yokha.',
  'claim.start.contact':
    'Ma claim (kupempha malipiro). Gawani nambala ya foni yanu kuti muone ma claim ndi inshuwalansi yanu.',
  'claim.note.alreadyOpen': 'Claim ya ichi ilipo kale: {number}. Tsatirani claim imeneyo.',
  'claim.alreadyOpen': 'Claim ya ichi ilipo kale: {number}.',
  'claim.choice.trackOpen': 'Tsatirani claim imeneyo',
  'claim.choice.anotherSubject': 'Ngongole kapena membala wina',
  'claim.note.alreadyOpenElsewhere':
    "Claim ya ichi ilipo kale. Wa m'banja amene anaitumiza ali ndi nambala yake.",
  'claim.note.noDocuments':
    'Kampani ikugwira ntchito pa claim iyi: sitikulandira zikalata zina pano. Imbirani kampani.',
  'claim.note.notYours': 'Foni yolembedwa ya claim iyi yokha ndi imene ingachite zimenezo.',
  'claim.note.unknown':
    'Sitingathe kuona ma claim anu pakali pano - yesaninso pakapita mphindi zochepa.',
  'claim.note.openUnknown':
    'Sitingathe kuona ngati claim ya ichi ilipo kale pakali pano - yesaninso pakapita mphindi zochepa.',
  'claim.needPhone':
    'Kuti mutumize claim, gawani nambala ya foni yanu choyamba: kampani idzakuimbirani pa nambala imeneyo, ndipo wolembedwayo adzadziwa amene anaitumiza.',
  'claim.note.needPhone': 'Gawani nambala ya foni yanu choyamba kuti mutumize claim.',
  'claim.sms.reported':
    'Claim {number} yatumizidwa pa inshuwalansi yanu kuchokera ku foni ina. Ngati simunayembekezere izi, imbani {serviceCode} ndipo sankhani Lankhulani ndi munthu, ndi kutchula {number}.',
  'claim.progress': 'Claim {number} tsopano: {insurerStatus}.',
  'claim.progress.documented': 'Claim {number}: kampani yalandira zikalata ndipo idzaziunika.',
  'claim.sms.reported.noCode':
    'Claim {number} yatumizidwa pa inshuwalansi yanu kuchokera ku foni ina. Ngati simunayembekezere izi, lankhulani ndi kampani ndi kutchula {number}.',
  'claim.note.held':
    'Zikalata zanu zasungidwa. Ogwira ntchito adzaona claim ndi banja, kenako adzazitumiza ku kampani.',

  // personal data (issue 29): the notice, My data
  'menu.choice.myData': 'Zambiri zanga',
  'privacy.notice':
    'Timasunga nambala, NRC, dzina ndi inshuwalansi yanu kuti tikutumikireni, mpaka masiku 500 itatha. Onani kapena fufutani mu Zambiri zanga.',
  'privacy.noticeFull':
    "Zachinsinsi (kusinthidwa kwa 2).\nWosunga: {controller} ndiye woyang'anira zambiri zanu. Mkulu wa zachinsinsi: {contact}.\nZimene timasunga: nambala ya foni kapena macheza anu, mayankho anu (NRC, mayina, imelo, galimoto, ulendo), ma policy anu ndi mafayilo amene mutumiza.\nChifukwa: kukugulitsani ndi kukutumikirani inshuwalansi, kusamalira ma claim anu ndi kukukumbutsani isanathe.\nTimagawana ndi: kampani ya inshuwalansi yomwe imapereka ndi kusunga ma policy anu; osunga ma server athu; a SMS omwe amakutumizirani mauthenga; Telegram, Meta (WhatsApp) kapena Slack mukazigwiritsa ntchito kapena mukapempha munthu (ogwira ntchito amaona NRC ndi nambala zobisika).\nKunja kwa dziko: Telegram, Meta ndi Slack, ndi osunga ma server athu ngati ali kunja, amasunga zambiri kunja kwa Zambia.\nNthawi: kukambirana mphindi 15, za malipiro tsiku 1, mafayilo masiku 30 (mafayilo a claim pamene kampani ya inshuwalansi ikunenabe za claim, ndi chaka 1 pambuyo pake), zokumbutsa mpaka masiku 500 inshuwalansi itatha. Mukafufuta, timasunga chizindikiro chobisika cha nambala ndi NRC yanu chokha, zaka 2, kuti tisazibwezeretse.\nUfulu wanu: mu Zambiri zanga onani zimene tili nazo, zifufuteni kapena tiletseni kuzigwiritsa ntchito; funsani {contact} kuti akupatseni kope kapena kukonza; mungadandaule kwa Data Protection Commissioner wa Zambia (Data Protection Act No. 3 of 2021).",
  'privacy.choice.agree': 'Ndavomera',
  'privacy.choice.decline': 'Ayi',
  'privacy.choice.full': 'Zonse',
  'privacy.declined':
    'Mwakana, choncho sitinasunge kanthu za inu. Vomerani nthawi ina mukaimba kuti mugule kapena muone inshuwalansi. Tsalani bwino.',
  'privacy.note.notRecorded': 'Pepani, sitinathe kulemba yankho lanu. Yesaninso.',
  'mydata.overview':
    'Tili nazo: nambala yanu {address}; {nrcCount, plural, =0 {palibe NRC} other {NRC {nrcs}}}; {policies, plural, =0 {palibe policy tikutsatira} one {policy # tikutsatira} other {ma policy # tikutsatira}}{numbered, plural, =0 {} other { ({policyNumbers})}}; {card, plural, =0 {palibe khadi la zokumbutsa} other {khadi la zokumbutsa}}; {consented, select, yes {munavomera zachinsinsi pa {agreedDate, date}} other {simunavomere zachinsinsi}}; macheza {handoffs} ndi munthu; mafayilo {files} amene munatumiza. Kampani imasunga zake.',
  'mydata.choice.delete': 'Fufutani zambiri zanga',
  'mydata.choice.stop': 'Lekani kugwiritsa zambiri zanga',
  'mydata.confirmDelete':
    'Fufutani zimene tili nazo: makambirano, khadi la zokumbutsa, macheza ndi munthu, mafayilo? Ma policy anu amakhala ku kampani.',
  'mydata.choice.yesDelete': 'Inde, fufutani',
  'mydata.confirmStop':
    'Tileke kugwiritsa zambiri zanu? Tifufuta zimene tili nazo, zokumbutsa ziima, ndipo tidzakufunsaninso nthawi ina. Ma policy anu amakhala ku kampani.',
  'mydata.choice.yesStop': 'Inde, lekani',
  'mydata.deleted':
    'Zafufutidwa. {paymentsKept, plural, =0 {} other {Malipiro amene akuchitika asungidwa mpaka atatha (tsiku 1 kwambiri). }}Kampani imasunga zake za ma policy anu.',
  'mydata.stopped':
    'Zachitika: tafufuta zambiri zanu ndipo sitizigwiritsa ntchito; zokumbutsa zaima. {paymentsKept, plural, =0 {} other {Malipiro amene akuchitika asungidwa mpaka atatha (tsiku 1 kwambiri). }}Kampani imasunga zake.',
  'mydata.failed': 'Pepani, sitinathe kufufuta zambiri zanu. Yesaninso pambuyo pake.',
  'mydata.receipt.deleted':
    'Risiti: monga munapempha, tafufuta zimene insurechat inali nazo za nambala iyi. Kampani imasunga zake za ma policy anu.',
  'mydata.receipt.stopped':
    'Risiti: monga munapempha, insurechat yaleka kugwiritsa nambala iyi, yafufuta zimene inali nazo ndi kuimitsa zokumbutsa. Kampani imasunga zake.',
  // claims finished on any channel (issue 30)
  'claim.pickType.none': 'Kampani ilibe inshuwalansi yopemphera claim pa policy iyi.',
  'claim.note.late':
    'Kutayika kunali masiku {days} apita: ma claim amafunika pasanathe masiku {allowed} ndipo angakanidwe.',
  'claim.linkSent':
    'Takutumizirani SMS ndi link ya claim {number}: itsegulani kuti mutumize zithunzi kapena mafayilo.',
  'claim.sms.upload': 'Tumizani zikalata za claim {number} (zithunzi kapena mafayilo) apa:',
  'claim.uploadPage': 'Onjezani zikalata',
  'claim.notice.link':
    'Claim {number} ({claimType}, {subject}) yalandiridwa. Kampani idzaiona ndi kukulankhulani. Zikalata zofunika: {documents}. Tumizani zithunzi kapena mafayilo apa:',
  'claim.notice.chat':
    'Claim {number} ({claimType}, {subject}) yalandiridwa. Kampani idzaiona ndi kukulankhulani. Zikalata zofunika: {documents}. Tumizani zithunzi kapena mafayilo mu macheza awa: Ma claim, Tsatirani ma claim anga, kenako {number}.',
  'documents.page.title': 'Zikalata za claim',
  'documents.page.claim': 'Claim {number}:',
  'documents.page.held': 'Zikalata zimene kampani ili nazo: {count}.',
  'documents.page.choose':
    'Jambulani chithunzi kapena sankhani mafayilo (zithunzi kapena PDF, mpaka {mb} MB iliyonse)',
  'documents.page.sending': 'zikutumizidwa...',
  'documents.page.sent': 'zatumizidwa',
  'documents.page.kept':
    'zasungidwa; ogwira ntchito adzaona claim ndi banja, kenako adzazitumiza ku kampani',
  'documents.page.failed': 'sizinatumizidwe; onani intaneti yanu ndi kuyesanso',
  'documents.page.needed': 'Zikalata zomwe kampani ikufuna: {documents}.',
  'documents.page.linkMalformed': 'Link iyi si yathunthu.',
  'documents.page.linkForged': 'Link iyi si yoona.',
  'documents.page.linkExpired': 'Nthawi ya link iyi yatha.',
  'documents.page.unavailable': 'Sitingapeze kampani pakali pano. Yesaninso nthawi ina.',
  'documents.page.unreadable': 'Sitinathe kuwerenga fayilo iyi. Chonde yesaninso.',
  'documents.page.notSent': 'Fayilo iyi sinatumizidwe. Chonde yesaninso.',
  'documents.page.notTaken': 'Kampani sinalandire fayilo iyi pakali pano. Chonde yesaninso.',
  'files.refused.type':
    'Zithunzi (JPEG, PNG, WebP, HEIC) ndi mafayilo a PDF okha ndi amene angatumizidwe.',
  'files.refused.tooLarge': 'Fayilo ndi yaikulu kwambiri: fayilo iliyonse isapitirire {mb} MB.',
  'files.refused.claimFull':
    'Claim iyi singalandire fayilo imeneyi: claim imodzi imalandira mafayilo {files} ndi {mb} MB onse basi.',
  'cover.choice.claim': 'Pemphani claim',
  'cover.choice.renew': 'Konzanso',

  // status words: the insurer's statuses in the customer's words (flows/status-words.ts)
  'status.inForce': 'ikugwira ntchito',
  'status.inGrace': 'ikugwira ntchito, lipirani premium',
  'status.inGraceUntil': 'ikugwira ntchito mpaka {until, date}, lipirani premium',
  'status.waitingPremium': 'ikudikira premium',
  'status.lapsed': 'yasiya kugwira ntchito, premium sinalipidwe',
  'status.offCover': 'mulibe inshuwalansi',
  'status.ended': 'yatha',
  'status.cancelled': 'yathetsedwa',
  'status.notIssued': 'sinaperekedwe',
  'status.claimReceived': 'claim yalandiridwa',
  'status.documentsReceived': 'zikalata zalandiridwa',
  'status.paymentPending': 'ikudikira malipiro',
  'status.paid': 'yalipidwa',
  'status.paymentFailed': 'malipiro sanapite',
  'status.claimHandled': 'kampani ikugwira ntchito pa claim iyi ({insurerStatus})',
  'status.unconfirmed': 'sitinatsimikize inshuwalansi iyi - imbirani kampani',
  'status.notCheckedNow': 'sitingathe kuona pakali pano',

  // what is bought (a payment's item, a reminder's words)
  'what.motor': '{product}, galimoto {plate}',
  'what.motorCover': 'Inshuwalansi ya galimoto {plate}',
  'what.renewal': 'kupitiriza {policyNumber}',
  'what.renewalOfPlate': 'kupitiriza {policyNumber} ({plate})',
  'what.travel': '{product} kupita ku {destination}',
  'what.travelCover': 'Inshuwalansi ya ulendo kupita ku {destination}',
  'what.line.motor': 'Galimoto',
  'what.line.travel': 'Ulendo',
  'what.line.life': 'Moyo',
  'what.line.funeral': 'Maliro',
  'what.line.group-life': 'Moyo wa gulu',
  'what.line.credit-life': 'Ngongole',
  'travel.packageOption': '{product}: {currency} {amount}',

  // the insurer's own words (src/conversation/insurer-words.ts)
  'insurer.product.motorThirdParty': 'Inshuwalansi ya galimoto kwa ena',
  'insurer.product.motorFireTheft': 'Galimoto: kwa ena, moto ndi kuba',
  'insurer.product.motorComprehensive': 'Galimoto: zonse',
  'insurer.product.africaExplorer': 'Ulendo mu Africa',
  'insurer.product.worldwideStandard': 'Ulendo padziko lonse',
  'insurer.product.termLife': 'Inshuwalansi ya moyo ya nthawi',
  'insurer.product.funeralPlan': 'Inshuwalansi ya maliro',
  'insurer.product.creditLife': 'Inshuwalansi ya ngongole',
  'insurer.product.householders': 'Inshuwalansi ya nyumba',
  'insurer.product.crop': 'Inshuwalansi ya mbewu',
  'insurer.period.days': '{count, plural, one {tsiku #} other {masiku #}}',
  'insurer.period.weeks': '{count, plural, one {sabata #} other {masabata #}}',
  'insurer.period.months': '{count, plural, one {mwezi #} other {miyezi #}}',
  'insurer.period.quarters':
    '{count, plural, one {gawo # la miyezi 3} other {magawo # a miyezi 3}}',
  'insurer.period.years': '{count, plural, one {chaka #} other {zaka #}}',
  'insurer.scope.death': 'Imfa',
  'insurer.scope.disability': 'Kulumala kosatha',
  'insurer.scope.retrenchment': 'Kuchotsedwa ntchito',
  'insurer.document.deathCertificate': 'Satifiketi ya imfa',
  'insurer.document.loanStatement': 'Chikalata cha ngongole',
  'insurer.document.medicalReport': 'Lipoti la dokotala',
  'insurer.document.terminationLetter': 'Kalata yochotsedwa ntchito',
  'insurer.document.policyWording': 'Mawu a policy',
  'insurer.document.burialPermit': 'Chilolezo cha maliro',
  'insurer.document.nrcCopy': 'Kope la NRC',
  'insurer.category.private': 'Yaumwini',
  'insurer.category.commercial': 'Yamalonda',
  'insurer.category.psv': 'Yonyamula anthu (basi, takisi)',
  'insurer.reason.declined': 'Munakana kulipira pa foni',
  'insurer.reason.insufficientFunds': 'Ndalama sizikukwanira',
  'insurer.reason.expired': 'Nthawi yovomereza inatha osayankha',
  'insurer.reason.failed': 'sikunadutse',
  'insurer.claimStatus.underReview': 'ikuunikidwa',
  'insurer.claimStatus.assessed': 'yaunikidwa',
  'insurer.claimStatus.approved': 'yavomerezedwa',
  'insurer.claimStatus.settled': 'yalipidwa',
  'insurer.claimStatus.paid': 'yalipidwa',
  'insurer.claimStatus.rejected': 'yakanidwa',
  'insurer.claimStatus.declined': 'yakanidwa',
  'insurer.claimStatus.closed': 'yatsekedwa',
  'insurer.relationship.principal': 'Mwini',
  'insurer.relationship.spouse': "Mnzawo wa m'banja",
  'insurer.relationship.child': 'Mwana',
  'insurer.relationship.parent': 'Kholo',
  'insurer.relationship.other': 'Wina',
  // the insurer's refusals (`{said}`)
  'insurer.refusal.vehicleElsewhere': 'Galimoto iyi yalembetsedwa kwa munthu wina.',
  'insurer.refusal.alreadyRegistered': 'Yalembetsedwa kale.',
  'insurer.refusal.alreadyUsed': 'Yagwiritsidwa ntchito kale.',
  'insurer.refusal.required': 'Izi zikufunika.',
  'insurer.refusal.expectedDate': 'Lembani tsiku.',
  'insurer.refusal.expectedMobile': 'Lembani nambala ya foni ya ku Zambia, monga 0971234567.',
  'insurer.refusal.endAfterStart': 'Tsiku lotha liyenera kukhala pambuyo pa tsiku loyamba.',
  'insurer.refusal.endAfterPolicyEnd':
    'Tsiku latsopano lotha liyenera kukhala pambuyo pa tsiku limene policy imatha.',
  'insurer.refusal.noPremiumYet': 'Palibe malipiro amene alandiridwa a policy iyi.',
  'insurer.refusal.lossInFuture': 'Tsiku la kutayika silinafike.',
  'insurer.refusal.loanNotOnRisk': 'Ngongole sinayambe kutetezedwa.',
  'insurer.refusal.loanOffCover': 'Ngongole sinali yotetezedwa pa tsiku la kutayika.',
  'insurer.refusal.lossBeforeCover':
    'Tsiku la kutayika linali ngongole ndi policy yake zisanayambe.',
  'insurer.refusal.lossInLapse':
    'Tsiku la kutayika linali pamene chitetezo chinaima: silidzalipidwa.',
  'insurer.refusal.memberPending': "Munthuyu ali m'gulu lodikira: sali wotetezedwa.",
  'insurer.refusal.memberOffCover': 'Munthuyu sanali wotetezedwa pa tsiku la imfa.',
  'insurer.refusal.beforePolicyStart': 'Policy isanayambe.',
  'insurer.refusal.lateNotice':
    "Ma claim amafunika m'masiku {allowed} kuchokera pa kutayika; kutayika uku kunali masiku {days} apitawo.",
  'insurer.refusal.alreadyPaid': 'Yalipidwa kale (nambala {reference}).',

  // limits (src/limits)
  'limits.note.hour': 'Chonde yesaninso pakatha ola limodzi.',
  'limits.note.day': 'Chonde yesaninso mawa.',
  'limits.note.later': 'Sitingathe kuchita izi pakali pano. Chonde yesaninso pambuyo pake.',

  // short titles of WhatsApp list rows (24 characters at most)
  'menu.choice.renew.short': 'Konzanso polisi',
  'menu.choice.renewList.short': 'Konzanso ({count} yatha)',
  'menu.choice.renewal.short': '{policyNumber}',
  'motor.choice.sendCode.short': 'Tumizani code ku {phone}',
  'motor.choice.newHolder.short': 'Ngati mwini watsopano',
  'claim.choice.groupLife.short': 'Imfa ya membala',
  'claim.choice.held.short': 'Pa inshuwalansi yanga',
  // The travel package's own line (travel.packageOption) where it is keyed.
  'travel.packageOption.short': '{product}',
  'claim.held.credit-life.short': '{number}',
  'claim.held.group-life.short': '{number}',
  'claim.line.short': '{number}',
  'cover.line.motor.short': '{number}',
  'cover.line.travel.short': '{number}',
  'cover.line.life.short': '{number}',
  'cover.line.funeral.short': '{number}',
  'cover.line.groupLife.short': '{number}',
  'cover.line.creditLife.short': '{number}',
};
